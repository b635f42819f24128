import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED, redactParsed, redactText, redactValue, storedBody, TOO_DEEP } from "./redact.ts";

const CARD = "4242424242424242";
const API_KEY = "sk_test_" + "a1B2".repeat(8);
const WHSEC = "whsec_" + "Zx9-_".repeat(8);

describe("redactValue", () => {
  it("replaces card fields at any depth, in objects and arrays", () => {
    const body = {
      amount: "1000",
      card: { number: CARD, cvc: "123", exp_month: 12, exp_year: 2030 },
      sources: [{ payment_method: { card_number: CARD, CVV: "999", expiry: "12/30" } }],
      nested: { deeper: { even: [{ Number: CARD, "exp-month": "01" }] } },
    };
    expect(redactValue(body)).toEqual({
      amount: "1000",
      card: { number: REDACTED, cvc: REDACTED, exp_month: REDACTED, exp_year: REDACTED },
      sources: [{ payment_method: { card_number: REDACTED, CVV: REDACTED, expiry: REDACTED } }],
      nested: { deeper: { even: [{ Number: REDACTED, "exp-month": REDACTED }] } },
    });
  });

  it("replaces secrets by field name: an endpoint's secret, API keys, Authorization, passwords", () => {
    expect(
      redactValue({ id: "we_1", secret: WHSEC, previous_secret: "x", api_key: "y", Authorization: "Bearer z", password: "p", url: "https://a.example" }),
    ).toEqual({
      id: "we_1",
      secret: REDACTED,
      previous_secret: REDACTED,
      api_key: REDACTED,
      Authorization: REDACTED,
      password: REDACTED,
      url: "https://a.example",
    });
  });

  it("replaces card numbers, keys and secrets inside any string, keeping the rest", () => {
    const out = JSON.stringify(
      redactValue({
        description: `card ${CARD.replace(/(\d{4})/g, "$1 ").trim()} please`,
        metadata: { note: `use ${API_KEY} or Bearer ${API_KEY}`, hook: `secret=${WHSEC}` },
        [`key ${CARD}`]: "as a field name",
      }),
    );
    for (const secret of [CARD, API_KEY, WHSEC, "4242 4242 4242 4242"]) expect(out).not.toContain(secret);
    expect(out).toContain("please");
  });

  it("replaces what is nested deeper than 32 levels whole, and drops what is not JSON", () => {
    const deepText = `${"[".repeat(20_000)}{"cvc":"123"}${"]".repeat(20_000)}`;
    const text = JSON.stringify(redactValue(JSON.parse(deepText)));
    expect(text).toContain(TOO_DEEP);
    expect(text).not.toContain("123");
    expect(storedBody(Buffer.from(deepText), 1_000)).toContain(TOO_DEEP);
    expect(storedBody(new (class Stream {})(), 100)).toBeNull();
  });

  it("keeps digit runs that are not card numbers (ids, amounts, failing Luhn)", () => {
    expect(redactText("amount 1000000 ref 4242424242424241 at 2026-11-25")).toBe("amount 1000000 ref 4242424242424241 at 2026-11-25");
  });
});

describe("storedBody", () => {
  it("is null for no body, redacted JSON text for JSON bytes or objects", () => {
    expect(storedBody(undefined, 100)).toBeNull();
    expect(storedBody(Buffer.alloc(0), 100)).toBeNull();
    expect(storedBody(Buffer.from(JSON.stringify({ card: { cvc: "123" } })), 100)).toBe(`{"card":{"cvc":"${REDACTED}"}}`);
    expect(storedBody({ secret: WHSEC }, 100)).toBe(`{"secret":"${REDACTED}"}`);
  });

  it("redacts text that is not JSON by shape", () => {
    expect(storedBody(Buffer.from(`number=${CARD}&cvc=1`), 100)).toBe(`number=${REDACTED}&cvc=1`);
  });

  it("stores no NUL character (PostgreSQL text cannot hold one); JSON keeps its escaped form", () => {
    expect(storedBody(Buffer.from("a\0b"), 100)).toBe("a\uFFFDb");
    expect(storedBody(Buffer.from('{"a":"x\\u0000y"}'), 100)).toBe('{"a":"x\\u0000y"}');
  });

  it("caps the stored text and says how much was cut", () => {
    const text = storedBody({ description: "x".repeat(500) }, 50)!;
    expect(text.startsWith('{"description":"xxx')).toBe(true);
    expect(text).toMatch(/…\[truncated \d+ bytes\]$/);
    expect(Buffer.byteLength(text.replace(/…\[truncated \d+ bytes\]$/, ""))).toBeLessThanOrEqual(50);
  });
});

describe("redactParsed (in place, for text storedBody parsed itself)", () => {
  // JSON text built from pieces redaction cares about: secret field names, secret-shaped keys and
  // values, `__proto__`, nesting; JSON.parse of it is what storedBody hands to redactParsed.
  const key = fc.constantFrom("number", "cvc", "Exp_Month", "api-key", "amount", "description", "__proto__", API_KEY, `card ${CARD}`, "x");
  const leaf = fc.oneof(
    fc.constantFrom(CARD, `4242 4242 4242 4242`, API_KEY, WHSEC, "Bearer abc", "plain", "2026-11-26T00:00:00.000Z"),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  );
  const { value } = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      leaf.map((v) => JSON.stringify(v)),
      fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
      fc.array(fc.tuple(key, tie("value")), { maxLength: 5 }).map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
    ),
  }));

  it("gives exactly what redactValue's copy gives", () => {
    fc.assert(
      fc.property(value, (text) => {
        expect(JSON.stringify(redactParsed(JSON.parse(text)))).toBe(JSON.stringify(redactValue(JSON.parse(text))));
      }),
      { numRuns: 500 },
    );
  });

  it("redacts the object it is given instead of copying it, when no key changes", () => {
    const parsed = JSON.parse(`{"card":{"number":"${CARD}","cvc":"123"},"description":"pay ${API_KEY}"}`) as Record<string, unknown>;
    expect(redactParsed(parsed)).toBe(parsed);
    expect(parsed).toEqual({ card: { number: REDACTED, cvc: REDACTED }, description: `pay ${REDACTED}` });
  });
});

describe("storedBody's text with nothing to redact, kept as it came", () => {
  const key = fc.oneof(
    fc.constantFrom("amount", "number", "Card_Number", "exp-month", "expires_at", "cvc", "token", "company", "__proto__", `k ${CARD}`, "a:b", 'say "hi"'),
    fc.string({ maxLength: 6 }),
  );
  const leaf = fc.oneof(
    fc.constantFrom(CARD, `4242-4242-4242-4242`, API_KEY, WHSEC, "Bearer abc", "plain", "12:30", "2026-11-26T00:00:00.000Z", "tab\there", 'quote"d'),
    fc.string({ maxLength: 8 }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  );
  // Random JSON spacing around every token, as clients send it.
  const space = fc.constantFrom("", " ", "\n  ", "\t");
  const { value } = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      leaf.map((v) => JSON.stringify(v)),
      fc.tuple(fc.array(tie("value"), { maxLength: 4 }), space).map(([items, s]) => `[${s}${items.join(`,${s}`)}${s}]`),
      fc
        .tuple(fc.array(fc.tuple(key, tie("value"), space), { maxLength: 5 }), space)
        .map(([entries, s]) => `{${s}${entries.map(([k, v, t]) => `${JSON.stringify(k)}${t}:${t}${v}`).join(`,${s}`)}${s}}`),
    ),
  }));

  it("stores the same JSON as parsing, redacting and writing it out would, whichever way it goes", () => {
    fc.assert(
      fc.property(value, (text) => {
        const stored = storedBody(Buffer.from(text), 1_000_000)!;
        expect(JSON.stringify(JSON.parse(stored))).toBe(JSON.stringify(redactParsed(JSON.parse(text))));
      }),
      { numRuns: 2_000 },
    );
  });

  it("keeps the client's spacing when there is nothing to redact, and redacts what only an escape spells", () => {
    const spaced = '{ "amount" : "1000",\n  "description": "12:30 pickup" }';
    expect(storedBody(Buffer.from(spaced), 10_000)).toBe(spaced);
    // A card number written digit by digit as \u escapes, and a `cvc` field as `c\u0076c`: neither reads as such in the raw text.
    const card = [...CARD].map((digit) => `\\u003${digit}`).join("");
    expect(JSON.parse(storedBody(Buffer.from(`{"d":"${card}"}`), 10_000)!)).toEqual({ d: REDACTED });
    expect(JSON.parse(storedBody(Buffer.from(String.raw`{"c\u0076c":"123"}`), 10_000)!)).toEqual({ cvc: REDACTED });
    expect(storedBody(Buffer.from('{"card":{"number" :"x"}}'), 10_000)).toBe(`{"card":{"number":"${REDACTED}"}}`);
  });
});
