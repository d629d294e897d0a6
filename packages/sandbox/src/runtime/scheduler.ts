/**
 * Transitions due at a virtual time (a card operation settling, a payout finishing, a webhook
 * retry). `runDue(now)` runs everything due, earliest first; a task may schedule more, and
 * those run in the same call when they are due too. Ties run in scheduling order.
 */
interface Task {
  at: number;
  seq: number;
  run: () => void;
}

export class Scheduler {
  #heap: Task[] = [];
  #seq = 0;

  at(time: number, run: () => void): void {
    this.#heap.push({ at: time, seq: this.#seq++, run });
    this.#up(this.#heap.length - 1);
  }

  /** Runs every task due at or before `now`; returns how many ran. */
  runDue(now: number): number {
    let count = 0;
    for (;;) {
      const top = this.#heap[0];
      if (!top || top.at > now) return count;
      this.#pop();
      top.run();
      count++;
    }
  }

  get size(): number {
    return this.#heap.length;
  }

  /** Time of the next task, if any. */
  get nextAt(): number | undefined {
    return this.#heap[0]?.at;
  }

  clear(): void {
    this.#heap = [];
  }

  #less(a: Task, b: Task): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  #up(i: number): void {
    const h = this.#heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const a = h[i] as Task;
      const b = h[parent] as Task;
      if (!this.#less(a, b)) return;
      h[i] = b;
      h[parent] = a;
      i = parent;
    }
  }

  #pop(): void {
    const h = this.#heap;
    const last = h.pop() as Task;
    if (h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.#less(h[l] as Task, h[m] as Task)) m = l;
      if (r < h.length && this.#less(h[r] as Task, h[m] as Task)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m] as Task, h[i] as Task];
      i = m;
    }
  }
}
