import type { Context } from "koa";
import { PublicError } from "../public-error.ts";
import { readBodyBytes } from "./body-bytes.ts";

// A small reader instead of a body-parser middleware: only the routes that
// take a body read one, nothing is buffered beyond the limit, and the facade
// stays inside its memory budget (co-body and its charset tables cost ~8 MB).

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads and parses the JSON body, or fails with the validation_error that says
 * why there is none: wrong Content-Type, charset or Content-Encoding, more than `limitBytes`,
 * bytes that are not UTF-8, text that is not JSON, a key given twice or an unpaired surrogate.
 */
export async function readJsonBody(ctx: Context, limitBytes: number): Promise<unknown> {
  if (!ctx.request.is("application/json")) throw new PublicError("validation_error", "Content-Type must be application/json.");
  const charset = ctx.request.charset.toLowerCase();
  if (charset && charset !== "utf-8" && charset !== "utf8") {
    throw new PublicError("validation_error", "JSON bodies must be UTF-8; remove the charset parameter or set it to utf-8.");
  }
  const body = await readBodyBytes(ctx, limitBytes);
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new PublicError("validation_error", "The body is not valid UTF-8.");
  }
  return parseJsonText(text);
}

/**
 * JSON.parse, plus the two faults it lets through silently: an object with the
 * same key twice (it keeps the last, so `amount` twice would charge the second)
 * and a `\u` escape that leaves a surrogate unpaired (protobuf cannot carry one:
 * it would be stored as U+FFFD, silently altered).
 */
export function parseJsonText(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PublicError("validation_error", "The body is not valid JSON.");
  }
  const fault = jsonTextFault(text);
  if (fault) throw new PublicError("validation_error", fault);
  return value;
}

/** Keys of one open object in the order read (the last is the one whose value is being read); null for an array. */
type Frame = string[] | null;

const pathOf = (frames: Frame[]) =>
  frames
    .map((keys) => (keys ? (keys[keys.length - 1] ?? "") : "[]"))
    .join(".")
    .replace(/\.\[\]/g, "[]");

// Most objects have a handful of keys, compared faster in an array; past this a Set
// keeps a 64 KiB object of thousands of keys linear.
const SET_AFTER_KEYS = 16;

/**
 * One pass over text that JSON.parse accepted (so it is well-formed JSON): the first
 * duplicate key or unpaired surrogate, described for the client, else undefined.
 * Only strings with a backslash are decoded; a fatal UTF-8 decode leaves no other
 * way to spell a lone surrogate, and keys without escapes are compared as written.
 */
function jsonTextFault(text: string): string | undefined {
  const frames: Frame[] = [];
  const sets: Array<Set<string> | undefined> = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) {
      frames.push([]);
      sets[frames.length - 1] = undefined;
    } else if (c === 0x5b /* [ */) frames.push(null);
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) frames.pop();
    else if (c === 0x22 /* " */) {
      const start = i;
      let escaped = false;
      for (i++; ; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x22) break;
        if (d === 0x5c /* \ */) {
          escaped = true;
          i++;
        }
      }
      let j = i + 1;
      while (j < n && text.charCodeAt(j) <= 0x20) j++;
      const isKey = text.charCodeAt(j) === 0x3a; /* : */
      if (!isKey && !escaped) continue;
      const str = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
      if (escaped && !str.isWellFormed()) {
        const path = isKey ? pathOf(frames.slice(0, -1)) : pathOf(frames);
        return `${path || "The body"} must be well-formed Unicode: a \\u escape leaves a surrogate unpaired.`;
      }
      if (!isKey) continue;
      const depth = frames.length - 1;
      const keys = frames[depth]!;
      let set = sets[depth];
      if (!set && keys.length >= SET_AFTER_KEYS) sets[depth] = set = new Set(keys);
      if (set ? set.has(str) : keys.includes(str)) {
        const parent = pathOf(frames.slice(0, -1));
        return `The key ${JSON.stringify(str)} appears twice in ${parent || "the body"}; each key may be given once.`;
      }
      keys.push(str);
      set?.add(str);
    }
  }
  return undefined;
}
