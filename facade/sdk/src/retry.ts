// When to try a request again, and how long to wait first. Retried: no answer at all (network error,
// timeout), 429 and 503. Every request the SDK makes is safe to repeat: reads change nothing, and
// each create or cancel carries one Idempotency-Key for all its attempts.

/** The statuses worth another attempt: rate_limited and processor_unavailable. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

/**
 * Seconds a Retry-After header asks for (delta-seconds or an HTTP date), or undefined when absent
 * or unreadable.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP date names its weekday and month; Date.parse would also read "-3" as a year.
  const at = /^[A-Z][a-z]{2}, /.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * How long to wait before attempt `attempt + 1` (attempt counts from 0): at least what Retry-After
 * asks (plus up to 250 ms, so clients told the same second do not come back together); otherwise
 * exponential backoff from 500 ms, capped at 8 s, with "equal jitter" (half fixed, half random).
 */
export function retryDelayMs(attempt: number, retryAfterSeconds: number | undefined, random: () => number = Math.random): number {
  if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000 + Math.floor(random() * 250);
  const ceiling = Math.min(MAX_DELAY_MS, INITIAL_DELAY_MS * 2 ** attempt);
  return Math.floor(ceiling / 2 + random() * (ceiling / 2));
}
