/**
 * The sandbox's virtual clock. It runs with real time plus an offset, so clients' own clocks
 * pass the ±10-minute x-timestamp check, and admin can move it forward (or freeze it for
 * deterministic tests and generated data). Moving it runs every scheduled transition that
 * became due, in time order.
 */
export class VirtualClock {
  #offsetMs = 0;
  #frozenAt: number | undefined;

  constructor(opts: { frozenAt?: number | undefined } = {}) {
    this.#frozenAt = opts.frozenAt;
  }

  now(): number {
    return this.#frozenAt ?? Date.now() + this.#offsetMs;
  }

  /** Moves time forward by `ms` (never backwards: finished states must not un-finish). */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError("advance takes a non-negative number of ms");
    if (this.#frozenAt !== undefined) this.#frozenAt += ms;
    else this.#offsetMs += ms;
    return this.now();
  }

  /** Stops the clock at `ms` (or now); `unfreeze()` lets it run on from there. */
  freeze(ms: number = this.now()): void {
    this.#frozenAt = ms;
  }

  unfreeze(): void {
    if (this.#frozenAt === undefined) return;
    this.#offsetMs = this.#frozenAt - Date.now();
    this.#frozenAt = undefined;
  }

  get frozen(): boolean {
    return this.#frozenAt !== undefined;
  }
}
