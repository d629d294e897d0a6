// Time windows of a run: the range to read, split into windows aligned to the window size, and
// the contiguous prefix of finished windows the watermark may move to.

export interface TimeWindow {
  /** Inclusive. */
  start: Date;
  /** Exclusive. */
  end: Date;
}

const SECOND = 1_000;

/** Floors to the second: the service's time filters are whole UTC seconds. */
export function floorToSecond(date: Date): Date {
  return new Date(Math.floor(date.getTime() / SECOND) * SECOND);
}

export function ceilToSecond(date: Date): Date {
  return new Date(Math.ceil(date.getTime() / SECOND) * SECOND);
}

/** The window boundary at or before `date`: a multiple of windowMs since the epoch. */
export function alignDown(date: Date, windowMs: number): Date {
  return new Date(Math.floor(date.getTime() / windowMs) * windowMs);
}

/** The window boundary at or after `date`. */
export function alignUp(date: Date, windowMs: number): Date {
  return new Date(Math.ceil(date.getTime() / windowMs) * windowMs);
}

/**
 * [from, to) in windows whose boundaries are multiples of windowMs since the epoch (so the same
 * window has the same bounds in every run, and a failed one is recognised when read again); the
 * first and last may be shorter. from and to must be whole seconds.
 */
export function splitWindows(from: Date, to: Date, windowMs: number): TimeWindow[] {
  const windows: TimeWindow[] = [];
  let start = from.getTime();
  const end = to.getTime();
  while (start < end) {
    const next = Math.min(end, (Math.floor(start / windowMs) + 1) * windowMs);
    windows.push({ start: new Date(start), end: new Date(next) });
    start = next;
  }
  return windows;
}

/**
 * Tracks which windows of a run are finished (committed, or recorded as failed for a later
 * retry) and answers how far the finished prefix reaches: the watermark may move only there,
 * since windows finish out of order.
 */
export class WindowPrefix {
  readonly #windows: readonly TimeWindow[];
  readonly #done: boolean[];
  #prefix = 0;

  constructor(windows: readonly TimeWindow[]) {
    this.#windows = windows;
    this.#done = windows.map(() => false);
  }

  /** The prefix end if window `index` were finished too (nothing is recorded). */
  endWith(index: number): Date | undefined {
    let i = this.#prefix;
    while (i < this.#windows.length && (this.#done[i] || i === index)) i++;
    return i === 0 ? undefined : this.#windows[i - 1]?.end;
  }

  markDone(index: number): void {
    this.#done[index] = true;
    while (this.#prefix < this.#windows.length && this.#done[this.#prefix]) this.#prefix++;
  }

  /** End of the finished prefix, or undefined when the first window is not finished. */
  get end(): Date | undefined {
    return this.#prefix === 0 ? undefined : this.#windows[this.#prefix - 1]?.end;
  }
}
