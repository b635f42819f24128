import pino from "pino";
import { luhnValid } from "../card-checks.ts";

// API keys, tokens and card data must never reach a log line, whatever object a caller hands to
// the logger and however deep the secret sits in it. pino's `redact` paths name fixed depths
// (`*.apiKey` reaches one level), so instead every logged object and every child's bindings are
// walked, and a value under a secret-looking key is censored wherever it is. Key names miss a card
// number pasted into free text (an error message, a description, a URL), so every string value,
// the message and an error's message are also scanned for card numbers, which are masked.

export const CENSOR = "[redacted]";
// Deeper than anything we log on purpose; what lies below is cut rather than written unchecked
// (this also ends cycles, which pino would otherwise print as "[Circular]").
export const MAX_DEPTH = 10;
const TOO_DEEP = "[too deep]";

// Keys compared without case and without separators: `api_key`, `apiKey`, `x-api-key` are one key.
const SECRET_KEYS = new Set(["authorization", "proxyauthorization", "cookie", "setcookie", "cardnumber", "cvc", "cvv", "pan"]);
// Suffixes: `internal_token`, `x-paytami-internal-token`, `embed_token_secret`, `webhook_secret`,
// `test_api_key`, `access_token`, `db_password`, …
const SECRET_SUFFIXES = ["secret", "token", "password", "passwd", "apikey", "privatekey"];

const normalize = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, "");

// 13 or more digits, single spaces or dashes allowed between them ("4242 4242 4242 4242"), not
// glued to letters or digits, directly or by a dash: ids such as `pay_…` or a UUID whose leading
// groups happen to be all digits are left alone.
const DIGIT_RUN = /(?<![A-Za-z0-9]|[A-Za-z0-9]-)\d(?:[ -]?\d){12,}(?![A-Za-z0-9]|-[A-Za-z0-9])/g;

/**
 * `text` with every card-number-like stretch masked: 13 to 19 digits (spaces and dashes allowed)
 * that pass the Luhn check keep their last four digits, the rest become `*`. A longer run is
 * searched for such a stretch between its separators ("4242 4242 4242 4242 123", a number and its
 * CVC). The common case, a string with no 13-digit run, costs one regular-expression scan.
 */
export function maskCardNumbers(text: string): string {
  if (text.length < 13) return text;
  return text.replace(DIGIT_RUN, maskRun);
}

function maskRun(run: string): string {
  const parts = run.split(/([ -])/); // digit groups at even indexes, separators between
  const groups = parts.filter((_, i) => i % 2 === 0);
  const masked = [...groups];
  let changed = false;
  for (let first = 0; first < groups.length; first++) {
    // The longest stretch of whole groups from `first` that is 13–19 digits and Luhn-valid.
    let digits = "";
    let last = -1;
    for (let end = first; end < groups.length && digits.length + groups[end]!.length <= 19; end++) {
      digits += groups[end];
      if (digits.length >= 13 && luhnValid(digits)) last = end;
    }
    if (last < 0) continue;
    let keep = 4;
    for (let g = last; g >= first; g--) {
      const group = groups[g]!;
      const kept = Math.min(keep, group.length);
      masked[g] = "*".repeat(group.length - kept) + group.slice(group.length - kept);
      keep -= kept;
    }
    changed = true;
    first = last;
  }
  if (!changed) return run;
  return parts.map((part, i) => (i % 2 === 0 ? masked[i / 2] : part)).join("");
}

function isSecretKey(key: string, parentKey?: string): boolean {
  const name = normalize(key);
  if (SECRET_KEYS.has(name) || SECRET_SUFFIXES.some((suffix) => name.endsWith(suffix))) return true;
  // `{ card: { number } }`: a card's number is the card number.
  return name === "number" && parentKey !== undefined && normalize(parentKey) === "card";
}

// Objects the JSON stringifier prints opaquely or that cannot hold a keyed secret.
function isOpaque(value: object): boolean {
  return value instanceof Date || value instanceof RegExp || ArrayBuffer.isView(value) || value instanceof ArrayBuffer;
}

/**
 * `value` with every secret-looking field censored, at any depth up to MAX_DEPTH. Copy on write:
 * the caller's objects are never modified, and what holds no secret is returned as is (the same
 * reference), so an ordinary log line costs a walk and no allocation.
 */
export function redactSecrets<T>(value: T, depth = 0, parentKey?: string): T {
  if (typeof value === "string") return maskCardNumbers(value) as T;
  if (value === null || typeof value !== "object" || isOpaque(value)) return value;
  if (depth >= MAX_DEPTH) return TOO_DEEP as T;
  if (Array.isArray(value)) {
    const list: readonly unknown[] = value;
    let copy: unknown[] | undefined;
    list.forEach((item, i) => {
      const redacted = redactSecrets(item, depth + 1, parentKey);
      if (redacted !== item) (copy ??= [...list])[i] = redacted;
    });
    return (copy ?? value) as T;
  }
  if (value instanceof Error) return redactError(value, depth) as T;
  // What the stringifier will print for objects that define it (Koa's ctx, entities, URLs, …).
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  const json: unknown = typeof toJSON === "function" ? toJSON.call(value) : value;
  if (json !== value) {
    const redacted = redactSecrets(json, depth, parentKey);
    return (redacted === json ? value : redacted) as T;
  }
  if (value instanceof Map || value instanceof Set) return value; // printed as {} by JSON
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(record)) {
    const redacted = isSecretKey(key, parentKey) ? CENSOR : redactSecrets(item, depth + 1, key);
    if (redacted !== item) (copy ??= { ...record })[key] = redacted;
  }
  return (copy ?? value) as T;
}

// An Error stays an Error (pino's err serializer prints its type, message and stack), with its
// own enumerable fields and its cause redacted like any object's.
function redactError(error: Error, depth: number): Error {
  const changes: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(error) as [string, unknown][]) {
    const redacted = isSecretKey(key) ? CENSOR : redactSecrets(item, depth + 1, key);
    if (redacted !== item) changes[key] = redacted;
  }
  if (error.cause !== undefined) {
    const cause = redactSecrets(error.cause, depth + 1);
    if (cause !== error.cause) changes.cause = cause;
  }
  const message = maskCardNumbers(error.message);
  const stack = error.stack === undefined ? undefined : maskCardNumbers(error.stack);
  if (Object.keys(changes).length === 0 && message === error.message && stack === error.stack) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object, Object.getOwnPropertyDescriptors(error)) as Error;
  // V8's `stack` accessor reads the original's internal slot; copy its text instead.
  Object.defineProperty(copy, "stack", { value: stack, enumerable: false, writable: true, configurable: true });
  Object.defineProperty(copy, "message", { value: message, enumerable: false, writable: true, configurable: true });
  for (const [key, item] of Object.entries(changes))
    Object.defineProperty(copy, key, { value: item, enumerable: key !== "cause", writable: true, configurable: true });
  return copy;
}

export function createLogger(name: string, destination?: pino.DestinationStream) {
  // Synchronous writes to stdout: a line is out when it is logged, nothing is
  // lost on a crash, and a slow log reader slows the process instead of growing
  // an unbounded buffer (measured: the asynchronous destination raised the
  // facade's peak RSS by ~20 MB under load).
  // Said explicitly: pino's default destination writes asynchronously, each line
  // handed to a libuv pool thread (strace at c=1: one pool write and one wake-up
  // of the event loop per access-log line), which is what ran until session 30:
  // a process killed right after logging 50 lines had written 1 (logger.test.ts).
  // Throughput and c=1 latency measured the same either way (test/bench/HISTORY.md).
  const options: pino.LoggerOptions = {
    name,
    level: process.env.LOG_LEVEL ?? "info",
    formatters: {
      log: (object) => redactSecrets(object),
      bindings: (bindings) => redactSecrets(bindings),
    },
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    hooks: {
      // The message and its interpolation values do not pass through the log formatter.
      logMethod(args, method) {
        const [first, ...rest] = args;
        const masked = [typeof first === "string" ? maskCardNumbers(first) : first, ...rest.map((arg) => redactSecrets(arg))];
        return method.apply(this, masked as Parameters<typeof method>);
      },
    },
  };
  const logger = pino(options, destination ?? pino.destination({ dest: 1, sync: true }));
  // pino applies the bindings formatter to the root's bindings only (children reset it), so each
  // child's bindings are redacted on the way in; children inherit this `child` from the root.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with each logger as `this` (children inherit this method)
  const pinoChild: (this: unknown, bindings: pino.Bindings, childOptions?: pino.ChildLoggerOptions) => unknown = logger.child;
  logger.child = function child(this: unknown, bindings: pino.Bindings, childOptions?: pino.ChildLoggerOptions) {
    return pinoChild.call(this, redactSecrets(bindings), childOptions);
  } as typeof logger.child;
  return logger;
}

export type Logger = ReturnType<typeof createLogger>;
