/**
 * When to call a failing core again: `minMs` after the first failure, doubling with each failure
 * after that up to `maxMs`, and at once again after any success. Failures of calls that were
 * already under way when the wait began (several recorders fail together) do not lengthen it.
 */
export class Backoff {
  readonly #minMs: number;
  readonly #maxMs: number;
  readonly #now: () => number;
  #delayMs = 0;
  #until = 0;

  constructor(minMs: number, maxMs: number, now: () => number = Date.now) {
    this.#minMs = minMs;
    this.#maxMs = maxMs;
    this.#now = now;
  }

  failed(): void {
    const now = this.#now();
    if (now < this.#until) return;
    this.#delayMs = Math.min(this.#maxMs, this.#delayMs === 0 ? this.#minMs : this.#delayMs * 2);
    this.#until = now + this.#delayMs;
  }

  succeeded(): void {
    this.#delayMs = 0;
    this.#until = 0;
  }

  /** How long to wait before the next call (0: call now). */
  remainingMs(): number {
    return Math.max(0, this.#until - this.#now());
  }
}
