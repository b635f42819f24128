// What is kept of a webhook receiver's response body, shared by the dispatcher (which reads it) and
// the core (which stores it, and cleans it again whoever sent it): text that PostgreSQL accepts and
// that shows what the receiver sent without acting on a terminal. A receiver writes those bytes, so
// nothing in them may fail the recording of an attempt (a NUL once rolled back whole batches).

/** An excerpt holds at most this many characters (code points), escapes included. */
export const EXCERPT_CHARS = 1024;

/** Body bytes that always suffice for a full excerpt: one UTF-8 character is at most 4 bytes. */
export const EXCERPT_READ_BYTES = 4 * EXCERPT_CHARS;

// Control characters (C0, DEL, C1) except tab, newline and carriage return, and the bidirectional
// controls, which reorder what an operator sees around them. All are in the BMP.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * `text` made safe to store and show, cut to `limit` characters: unsafe characters become a visible
 * `\uXXXX`, a lone surrogate becomes U+FFFD, and the cut never splits an escape. Idempotent, so the
 * core can apply it again to what a dispatcher already cleaned.
 */
export function safeText(text: string, limit = EXCERPT_CHARS): string {
  let out = "";
  let chars = 0;
  for (const char of text.toWellFormed()) {
    const piece = UNSAFE.test(char) ? escape(char) : char;
    // An escape counts as its 6 characters; any other character (astral ones too) as one.
    const size = piece === char ? 1 : piece.length;
    if (chars + size > limit) break;
    out += piece;
    chars += size;
  }
  return out;
}

/**
 * The excerpt of a body of which `bytes` were read (`complete` when that was all of it). Invalid
 * UTF-8 becomes U+FFFD; a character cut off by the end of what was read is dropped, not replaced.
 */
export function responseExcerpt(bytes: Uint8Array, complete: boolean): string {
  const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  // stream: true keeps a trailing partial character back instead of replacing it.
  const text = decoder.decode(bytes.subarray(0, EXCERPT_READ_BYTES), { stream: !complete || bytes.length > EXCERPT_READ_BYTES });
  return safeText(text);
}
