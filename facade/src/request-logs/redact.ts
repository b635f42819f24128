import { luhnValid } from "../../../proto/card-checks.ts";

// What a stored request log may never hold (issue 17): card data (number, CVC, expiry) and secrets
// (API keys, webhook signing secrets, passwords, the Authorization header). Removed by field name
// anywhere in a body, however deep, and by shape inside any string (a card number typed into a
// description, a key pasted into metadata), since a merchant may put either anywhere.

/** Field names (compared lower-cased, without `_` and `-`) whose value is replaced whatever it is. */
const SECRET_FIELDS = new Set([
  "number",
  "cardnumber",
  "pan",
  "cvc",
  "cvv",
  "cvc2",
  "cvv2",
  "securitycode",
  "expmonth",
  "expyear",
  "expiry",
  "expiration",
  "exp",
  "secret",
  "secrets",
  "previoussecret",
  "webhooksecret",
  "signingsecret",
  "apikey",
  "authorization",
  "password",
  "token",
]);

export const REDACTED = "[redacted]";

const fieldName = (key: string) => key.toLowerCase().replace(/[_-]/g, "");

// Runs of 12–19 digits, possibly grouped by spaces or dashes as people type card numbers.
const DIGIT_RUN = /\d(?:[ -]?\d){11,18}/g;
const API_KEY = /\b[sr]k_(?:test|live)_[0-9A-Za-z]+/g;
const WEBHOOK_SECRET = /\bwhsec_[0-9A-Za-z_-]+/g;
const BEARER = /\bBearer\s+\S+/gi;

// Could the string hold any of the above? One scan, instead of one per pattern: most strings
// (ids, timestamps, amounts, names) hold none of them and leave here unchanged. The digit part is
// DIGIT_RUN's first twelve digits, so a run spaced out digit by digit is caught too.
const MAYBE_SECRET = /k_(?:test|live)_|whsec_|bearer|\d(?:[ -]?\d){11}/i;

/** A string with every card-number-shaped (Luhn-valid) digit run and every key or secret replaced. */
export function redactText(text: string): string {
  if (!MAYBE_SECRET.test(text)) return text;
  let out = text;
  if (out.includes("k_test_") || out.includes("k_live_")) out = out.replace(API_KEY, REDACTED);
  if (out.includes("whsec_")) out = out.replace(WEBHOOK_SECRET, REDACTED);
  if (/bearer/i.test(out)) out = out.replace(BEARER, `Bearer ${REDACTED}`);
  out = out.replace(DIGIT_RUN, (run) => (luhnValid(run.replace(/[ -]/g, "")) ? REDACTED : run));
  return out;
}

// What redaction does with a field name. Bodies of one API repeat the same few dozen names, so the
// answer is remembered (bounded: hostile bodies with fresh names only refill it).
/** Kept as it is; its value is redacted by shape. */
const PLAIN = 0;
/** Kept as it is; its value is replaced whole. */
const SECRET = 1;
/** The name itself changes (it holds a secret) or is `__proto__`: the object is copied. */
const REWRITTEN = 2;
type KeyKind = typeof PLAIN | typeof SECRET | typeof REWRITTEN;
const KEY_KINDS_KEPT = 4_096;
const keyKinds = new Map<string, KeyKind>();
function keyKind(key: string): KeyKind {
  let kind = keyKinds.get(key);
  if (kind === undefined) {
    kind = key === "__proto__" || redactText(key) !== key ? REWRITTEN : SECRET_FIELDS.has(fieldName(key)) ? SECRET : PLAIN;
    if (keyKinds.size >= KEY_KINDS_KEPT) keyKinds.clear();
    keyKinds.set(key, kind);
  }
  return kind;
}

/** Nesting kept at most; what is deeper is replaced whole (a hostile body must not exhaust the stack). */
const MAX_DEPTH = 32;
export const TOO_DEEP = "[too deep]";

/** An object literal's kind (no class instance, no stream): what redaction copies. */
export const isPlainObject = (value: object) => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * A deep copy of a parsed JSON value with the secret fields' values and secret-shaped strings
 * replaced. Only JSON's own kinds are copied: anything else (a stream a route answered with) is dropped.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactText(value);
  if (value === null || typeof value !== "object") return typeof value === "number" || typeof value === "boolean" || value === null ? value : undefined;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((inner) => redactValue(inner, depth + 1));
  if (!isPlainObject(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[redactText(key)] = SECRET_FIELDS.has(fieldName(key)) ? REDACTED : redactValue(inner, depth + 1);
  return out;
}

/**
 * redactValue for a value this module just parsed from JSON text and nobody else holds: the same
 * result, redacted in place instead of copied (the copy and its Object.entries pairs were the
 * facade's largest allocation of its own per request). An object with a key that redaction would
 * change, or a `__proto__` key, is copied as redactValue does, so the keys and their order are its.
 */
export function redactParsed(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = redactParsed(value[i], depth + 1);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) if (keyKind(key) === REWRITTEN) return redactValue(record, depth);
  for (const key in record) record[key] = keyKind(key) === SECRET ? REDACTED : redactParsed(record[key], depth + 1);
  return record;
}

const isJsonSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9;

/**
 * Could redaction change anything in this text? Only if it holds a secret-shaped run (MAYBE_SECRET,
 * which finds every match a parsed string could hold: digits, `k_test_`, `whsec_` and `bearer` read
 * the same escaped or not) or a field name redaction acts on. Every object key is a quoted string
 * followed by a colon, so each colon's preceding quoted text is checked (colons inside strings
 * only add candidates). A `\u` escape could spell either, so it always answers yes.
 */
function mayNeedRedaction(raw: string): boolean {
  if (raw.includes("\\u") || MAYBE_SECRET.test(raw)) return true;
  for (let colon = raw.indexOf(":"); colon !== -1; colon = raw.indexOf(":", colon + 1)) {
    let end = colon - 1;
    while (end >= 0 && isJsonSpace(raw.charCodeAt(end))) end--;
    if (end <= 0 || raw.charCodeAt(end) !== 34) continue;
    const start = raw.lastIndexOf('"', end - 1);
    if (start !== -1 && keyKind(raw.slice(start + 1, end)) !== PLAIN) return true;
  }
  return false;
}

/**
 * The JSON text to store for a body: redacted, then capped at `capBytes` (a capped body is no longer
 * JSON: it ends with a marker saying how much was cut). Text that is not JSON is kept only as its
 * redacted form, capped the same way. Text with nothing to redact (most bodies: mayNeedRedaction)
 * is stored as it came, without parsing it and writing it out again (4–5 µs a request for a
 * payment's two bodies); it is the same JSON, in the client's own spacing.
 */
export function storedBody(body: unknown, capBytes: number): string | null {
  if (body === undefined || body === null) return null;
  let text: string;
  if (typeof body === "string" || Buffer.isBuffer(body)) {
    const raw = typeof body === "string" ? body : body.toString("utf8");
    if (raw === "") return null;
    if (!mayNeedRedaction(raw)) text = raw;
    else
      try {
        text = JSON.stringify(redactParsed(JSON.parse(raw)));
      } catch {
        text = redactText(raw);
      }
    // PostgreSQL's text holds no NUL: one in a stored body would fail its whole batch (JSON has none unescaped).
    if (text.includes("\0")) text = text.replaceAll("\0", "\uFFFD");
  } else if (typeof body === "object") {
    const copy = redactValue(body);
    if (copy === undefined) return null;
    text = JSON.stringify(copy);
  } else {
    return null;
  }
  if (Buffer.byteLength(text) <= capBytes) return text;
  // Cut on a character boundary; a cut cannot make a secret reappear, it was replaced before.
  const cut = Buffer.from(text)
    .subarray(0, capBytes)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  return `${cut}…[truncated ${Buffer.byteLength(text) - Buffer.byteLength(cut)} bytes]`;
}
