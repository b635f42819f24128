// When a failed webhook delivery is tried again (DESIGN §4 "Webhooks"): WEBHOOK_RETRY_SCHEDULE
// lists the delay before each attempt (the first is 0: right away), with ±20 % jitter so a
// receiver that came back is not hit by every delivery at the same instant; a receiver's
// Retry-After is honoured, but only within [delay, 2 × delay], so it can neither speed the
// schedule up nor stall a delivery indefinitely.

/** A random number in [0, 1). */
type Random = () => number;

const JITTER = 0.2;

/**
 * The delay in ms before the next attempt after `attemptsMade` attempts of this round have failed,
 * or null when the schedule is exhausted (the delivery is failed).
 */
export function retryDelayMs(schedule: readonly number[], attemptsMade: number, retryAfterMs: number | undefined, random: Random = Math.random): number | null {
  if (attemptsMade >= schedule.length) return null;
  const delay = schedule[attemptsMade]!;
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return Math.min(Math.max(retryAfterMs, delay), 2 * delay);
  return Math.round(delay * (1 - JITTER + 2 * JITTER * random()));
}

/**
 * A Retry-After header value in ms: delay-seconds or an HTTP date (relative to `now`), else
 * undefined. Parsed by the dispatcher; the core applies the schedule's bounds.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
