// Reading settings from the environment the same way in every process (core, facade, dispatcher):
// durations, process credentials and the settings two processes must read alike. Each process's
// own policies and defaults stay in its config module.

const DURATION = /^(\d+)(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Whether `text` is a duration such as 500ms, 30s, 5m, 24h or 7d. */
export function isDuration(text: string): boolean {
  return DURATION.test(text.trim());
}

export function parseDuration(text: string): number {
  const match = DURATION.exec(text.trim());
  if (!match) throw new Error(`invalid duration "${text}" (expected e.g. 500ms, 30s, 5m, 24h)`);
  const unit = match[2] as keyof typeof UNIT_MS;
  return Number(match[1]) * UNIT_MS[unit];
}

/** A retry/delay list such as "0,5s,5m"; a bare "0" means no delay. */
export function parseDurationList(text: string): number[] {
  return text.split(",").map((part) => (part.trim() === "0" ? 0 : parseDuration(part)));
}

// A process's credential is a bearer secret sent on every call: one short or made of one repeated
// character is a placeholder or a typo, refused at start rather than guessed later.
const SERVICE_TOKEN_MIN_LENGTH = 32;

/** The credential in `name`, or undefined when unset; throws (one line, naming the variable) when it is too weak. */
export function serviceTokenEnv(source: NodeJS.ProcessEnv, name: string): string | undefined {
  const token = source[name];
  if (token === undefined || token === "") return undefined;
  if (token.length < SERVICE_TOKEN_MIN_LENGTH || /^(.)\1*$/su.test(token)) {
    throw new Error(
      `${name} is too weak: it must be at least ${SERVICE_TOKEN_MIN_LENGTH} characters and not one character repeated ` +
        "(generate one with `openssl rand -base64 32`)",
    );
  }
  return token;
}

/**
 * WEBHOOK_ALLOW_LOOPBACK: "true" or "false" (the default, also when empty); anything else is refused
 * at start-up rather than guessed. The core (which endpoints it accepts) and the dispatcher (where it
 * sends) read it alike.
 */
export function webhookAllowLoopbackEnv(source: NodeJS.ProcessEnv): boolean {
  const text = source.WEBHOOK_ALLOW_LOOPBACK || "false";
  if (text !== "true" && text !== "false") throw new Error(`WEBHOOK_ALLOW_LOOPBACK must be "true" or "false", got "${text}"`);
  return text === "true";
}

/** The nice value a background thread runs at unless its setting says otherwise: the lowest priority (thread-priority.ts). */
const BACKGROUND_THREAD_NICE = 19;

/** REQUEST_LOG_THREAD_NICE (the facade and the core read it alike): 0 (no change) to 19 (lowest priority), 19 unless set; anything else is refused at start. */
export function threadNiceEnv(source: NodeJS.ProcessEnv, name: string): number {
  const text = (source[name] ?? "").trim();
  if (text === "") return BACKGROUND_THREAD_NICE;
  if (!/^\d{1,2}$/.test(text) || Number(text) > 19) throw new Error(`${name} must be a whole number from 0 (no change) to 19 (lowest priority), got "${text}"`);
  return Number(text);
}

/**
 * A fixed-window limit as "<n>/<unit>,…,<window>": one count per unit (parts in any order, spaces
 * allowed; each count ≥ 1) and a window duration of at least 1s; "off" turns it off (null).
 */
export function parseWindowLimit<U extends string>(
  name: string,
  text: string,
  units: readonly U[],
  example: string,
): { counts: Record<U, number>; windowMs: number } | null {
  if (text.trim() === "off") return null;
  const bad = () => new Error(`${name} must look like "${example}" (or "off"), got "${text}"`);
  const parts = text.split(",").map((part) => part.trim());
  if (parts.length !== units.length + 1) throw bad();
  const counts: Partial<Record<U, number>> = {};
  let windowMs: number | undefined;
  for (const part of parts) {
    const count = /^(\d+)\s*\/\s*([a-z]+)$/.exec(part);
    if (count && (units as readonly string[]).includes(count[2]!)) {
      const n = Number(count[1]);
      if (!Number.isSafeInteger(n) || n < 1) throw bad();
      counts[count[2] as U] = n;
    } else if (isDuration(part)) {
      windowMs = parseDuration(part);
    } else {
      throw bad();
    }
  }
  if (units.some((unit) => counts[unit] === undefined) || windowMs === undefined || windowMs < 1_000) throw bad();
  return { counts: counts as Record<U, number>, windowMs };
}
