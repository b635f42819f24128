import { describe, expect, test } from "vitest";
import { EXCERPT_CHARS, EXCERPT_READ_BYTES, responseExcerpt, safeText } from "./response-excerpt.ts";

describe("safeText", () => {
  test("escapes NUL, the other C0 and C1 controls, DEL and bidi controls visibly; keeps tab, newline, CR", () => {
    expect(safeText("ok\0")).toBe("ok\\u0000");
    expect(safeText("a\x01b\x1bc\x7fd\x85e\x9f")).toBe("a\\u0001b\\u001bc\\u007fd\\u0085e\\u009f");
    expect(safeText("line\tone\r\nline two")).toBe("line\tone\r\nline two");
    expect(safeText("abc\u202Egnp.exe")).toBe("abc\\u202egnp.exe");
    expect(safeText("é € 😀 日本")).toBe("é € 😀 日本");
  });

  test("replaces lone surrogates with U+FFFD", () => {
    expect(safeText("a\uD800b\uDC00")).toBe("a\uFFFDb\uFFFD");
  });

  test("cuts at the limit in characters, never inside an escape, counting an astral character once", () => {
    expect(safeText("x".repeat(2000))).toHaveLength(EXCERPT_CHARS);
    expect([...safeText("😀".repeat(2000))]).toHaveLength(EXCERPT_CHARS);
    const cut = safeText("x".repeat(EXCERPT_CHARS - 3) + "\0");
    expect(cut).toBe("x".repeat(EXCERPT_CHARS - 3));
    expect(safeText("\0".repeat(500))).toBe("\\u0000".repeat(Math.floor(EXCERPT_CHARS / 6)));
  });

  test("is idempotent: cleaning a cleaned text changes nothing", () => {
    const samples = ["ok\0", "\x01\x02\x9b[31m", "é".repeat(1500), "\0".repeat(300), "a\uD800", "plain \\u0000 text"];
    for (const text of samples) expect(safeText(safeText(text))).toBe(safeText(text));
  });
});

describe("responseExcerpt", () => {
  test("invalid UTF-8 becomes U+FFFD, also at the end of a complete body", () => {
    expect(responseExcerpt(Buffer.from([0x6f, 0x6b, 0xff, 0xfe, 0x21]), true)).toBe("ok\uFFFD\uFFFD!");
    expect(responseExcerpt(Buffer.from([0x6f, 0x6b, 0xc3]), true)).toBe("ok\uFFFD");
  });

  test("a character cut off by what was read is dropped, not replaced", () => {
    expect(responseExcerpt(Buffer.from([0x6f, 0x6b, 0xc3]), false)).toBe("ok");
    const long = Buffer.from("é".repeat(EXCERPT_READ_BYTES));
    expect(responseExcerpt(long.subarray(0, 7), false)).toBe("ééé");
  });

  test("four bytes a character always fill the excerpt", () => {
    expect([...responseExcerpt(Buffer.from("😀".repeat(EXCERPT_CHARS + 10)), false)]).toHaveLength(EXCERPT_CHARS);
    expect(responseExcerpt(Buffer.from("ok\0"), true)).toBe("ok\\u0000");
  });
});
