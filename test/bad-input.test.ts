// Malformed requests: each gets its catalog error (exact status + code + body
// shape) and creates nothing; no request a client can send yields a 500.
// Spec 4.1, 4.3, §7, §8; DESIGN §4 Money, Validation, Idempotency, Listing.

import { beforeAll, describe, expect, test } from "vitest";
import { ERROR_CODES } from "../proto/error-catalog.ts";
import type { Merchant } from "./support/stack.ts";
import { newIdemKey } from "./support/http.ts";
import { expectError, randomPaymentId, useStack, validBody } from "./support/expect.ts";

const stack = useStack();
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Bad Input" });
});

interface Case {
  name: string;
  /** JSON-able body (sent as application/json) */
  body?: unknown;
  /** raw body, sent as is, with `contentType` if given */
  raw?: string | Buffer;
  contentType?: string;
  /** Idempotency-Key; a fresh one when absent, none when null */
  idem?: string | null;
  status: number;
  code: string;
}

const long = (n: number) => "a".repeat(n);

const CREATE_CASES: Case[] = [
  // amount
  { name: "amount as a JSON number", body: validBody({ amount: 10000 }), status: 400, code: "validation_error" },
  { name: "amount negative", body: validBody({ amount: "-1000" }), status: 400, code: "validation_error" },
  { name: "amount negative zero", body: validBody({ amount: "-0" }), status: 400, code: "validation_error" },
  { name: "amount decimal", body: validBody({ amount: "100.50" }), status: 400, code: "validation_error" },
  { name: "amount decimal zero", body: validBody({ amount: "1000.0" }), status: 400, code: "validation_error" },
  { name: "amount leading zero", body: validBody({ amount: "01000" }), status: 400, code: "validation_error" },
  { name: "amount empty string", body: validBody({ amount: "" }), status: 400, code: "validation_error" },
  { name: "amount with plus sign", body: validBody({ amount: "+1000" }), status: 400, code: "validation_error" },
  { name: "amount with spaces", body: validBody({ amount: " 1000 " }), status: 400, code: "validation_error" },
  { name: "amount exponent", body: validBody({ amount: "1e4" }), status: 400, code: "validation_error" },
  { name: "amount hex", body: validBody({ amount: "0x3e8" }), status: 400, code: "validation_error" },
  { name: "amount with thousands separator", body: validBody({ amount: "10,000" }), status: 400, code: "validation_error" },
  { name: "amount non-ASCII digits", body: validBody({ amount: "١٠٠٠" }), status: 400, code: "validation_error" },
  { name: "amount huge (17 digits)", body: validBody({ amount: "12345678901234567" }), status: 400, code: "validation_error" },
  { name: "amount huge (40 digits)", body: validBody({ amount: "9".repeat(40) }), status: 400, code: "validation_error" },
  { name: "amount null", body: validBody({ amount: null }), status: 400, code: "validation_error" },
  { name: "amount boolean", body: validBody({ amount: true }), status: 400, code: "validation_error" },
  { name: "amount object", body: validBody({ amount: { value: "1000" } }), status: 400, code: "validation_error" },
  { name: "amount array", body: validBody({ amount: ["1000"] }), status: 400, code: "validation_error" },
  { name: "amount missing", body: validBody({ amount: undefined }), status: 400, code: "validation_error" },
  { name: "amount 16 digits, well-formed → above maximum", body: validBody({ amount: "9999999999999999" }), status: 400, code: "amount_above_maximum" },
  { name: "amount 0 → below minimum", body: validBody({ amount: "0" }), status: 400, code: "amount_below_minimum" },
  { name: "GTQ amount 499 → below minimum", body: validBody({ amount: "499" }), status: 400, code: "amount_below_minimum" },
  { name: "GTQ amount 10000001 → above maximum", body: validBody({ amount: "10000001" }), status: 400, code: "amount_above_maximum" },
  { name: "USD amount 99 → below minimum", body: validBody({ currency: "USD", amount: "99" }), status: 400, code: "amount_below_minimum" },
  { name: "USD amount 1000001 → above maximum", body: validBody({ currency: "USD", amount: "1000001" }), status: 400, code: "amount_above_maximum" },
  // currency
  { name: "currency lowercase", body: validBody({ currency: "gtq" }), status: 400, code: "validation_error" },
  { name: "currency mixed case", body: validBody({ currency: "Usd" }), status: 400, code: "validation_error" },
  { name: "currency 4 letters", body: validBody({ currency: "GTQQ" }), status: 400, code: "validation_error" },
  { name: "currency 2 letters", body: validBody({ currency: "GT" }), status: 400, code: "validation_error" },
  { name: "currency numeric code as number", body: validBody({ currency: 320 }), status: 400, code: "validation_error" },
  { name: "currency empty", body: validBody({ currency: "" }), status: 400, code: "validation_error" },
  { name: "currency missing", body: validBody({ currency: undefined }), status: 400, code: "validation_error" },
  { name: "currency EUR (well-formed, not enabled)", body: validBody({ currency: "EUR" }), status: 400, code: "currency_not_supported" },
  { name: "currency XYZ (well-formed, unknown)", body: validBody({ currency: "XYZ" }), status: 400, code: "currency_not_supported" },
  // method_type
  { name: "method_type unknown", body: validBody({ method_type: "crypto" }), status: 400, code: "validation_error" },
  { name: "method_type capitalized", body: validBody({ method_type: "Card" }), status: 400, code: "validation_error" },
  { name: "method_type number", body: validBody({ method_type: 1 }), status: 400, code: "validation_error" },
  { name: "method_type missing", body: validBody({ method_type: undefined }), status: 400, code: "validation_error" },
  { name: "USD bank_transfer", body: validBody({ currency: "USD", amount: "1000", method_type: "bank_transfer" }), status: 400, code: "method_not_supported" },
  // URLs
  { name: "success_url missing", body: validBody({ success_url: undefined }), status: 400, code: "validation_error" },
  { name: "cancel_url missing", body: validBody({ cancel_url: undefined }), status: 400, code: "validation_error" },
  { name: "success_url relative", body: validBody({ success_url: "/thanks" }), status: 400, code: "validation_error" },
  { name: "success_url scheme-relative", body: validBody({ success_url: "//shop.example.com/thanks" }), status: 400, code: "validation_error" },
  { name: "success_url ftp:", body: validBody({ success_url: "ftp://shop.example.com/thanks" }), status: 400, code: "validation_error" },
  { name: "cancel_url javascript:", body: validBody({ cancel_url: "javascript:alert(1)" }), status: 400, code: "validation_error" },
  { name: "cancel_url data:", body: validBody({ cancel_url: "data:text/html,hi" }), status: 400, code: "validation_error" },
  { name: "success_url not a URL", body: validBody({ success_url: "not a url" }), status: 400, code: "validation_error" },
  { name: "success_url empty", body: validBody({ success_url: "" }), status: 400, code: "validation_error" },
  { name: "success_url over 2048 chars", body: validBody({ success_url: "https://shop.example.com/" + long(2048) }), status: 400, code: "validation_error" },
  { name: "cancel_url a number", body: validBody({ cancel_url: 123 }), status: 400, code: "validation_error" },
  // description
  { name: "description 501 code points (emoji)", body: validBody({ description: "😀".repeat(501) }), status: 400, code: "validation_error" },
  { name: "description 501 ASCII chars", body: validBody({ description: long(501) }), status: 400, code: "validation_error" },
  { name: "description a number", body: validBody({ description: 42 }), status: 400, code: "validation_error" },
  { name: "description an object", body: validBody({ description: { text: "x" } }), status: 400, code: "validation_error" },
  // customer
  { name: "customer a string", body: validBody({ customer: "ana@example.com" }), status: 400, code: "validation_error" },
  { name: "customer an array", body: validBody({ customer: [{ email: "ana@example.com" }] }), status: 400, code: "validation_error" },
  { name: "customer a number", body: validBody({ customer: 7 }), status: 400, code: "validation_error" },
  { name: "customer.email not an address", body: validBody({ customer: { email: "not-an-email" } }), status: 400, code: "validation_error" },
  { name: "customer.email with spaces", body: validBody({ customer: { email: "ana lopez@example.com" } }), status: 400, code: "validation_error" },
  { name: "customer.email a number", body: validBody({ customer: { email: 5 } }), status: 400, code: "validation_error" },
  { name: "customer.name 201 code points", body: validBody({ customer: { name: "ñ".repeat(201) } }), status: 400, code: "validation_error" },
  { name: "customer.name a number", body: validBody({ customer: { name: 12 } }), status: 400, code: "validation_error" },
  { name: "customer unknown field", body: validBody({ customer: { phone: "5555" } }), status: 400, code: "validation_error" },
  // shape
  { name: "unknown extra field", body: validBody({ metadata: { order: "1" } }), status: 400, code: "validation_error" },
  { name: "unknown extra field (amount_minor)", body: validBody({ amount_minor: "1000" }), status: 400, code: "validation_error" },
  { name: "empty object", body: {}, status: 400, code: "validation_error" },
  { name: "malformed JSON", raw: '{"amount": "1000", "currency": ', contentType: "application/json", status: 400, code: "validation_error" },
  {
    name: "JSON with trailing comma",
    raw: JSON.stringify(validBody()).replace(/}$/, ",}"),
    contentType: "application/json",
    status: 400,
    code: "validation_error",
  },
  { name: "JSON array body", raw: JSON.stringify([validBody()]), contentType: "application/json", status: 400, code: "validation_error" },
  { name: "JSON null body", raw: "null", contentType: "application/json", status: 400, code: "validation_error" },
  { name: "JSON string body", raw: '"hello"', contentType: "application/json", status: 400, code: "validation_error" },
  { name: "JSON number body", raw: "42", contentType: "application/json", status: 400, code: "validation_error" },
  { name: "empty body", raw: "", contentType: "application/json", status: 400, code: "validation_error" },
  // A complete, valid body whose only fault is two bytes that are not UTF-8 in the description.
  {
    name: "invalid UTF-8 in body",
    raw: Buffer.concat(
      JSON.stringify(validBody({ description: "@@" }))
        .split("@@")
        .flatMap((part, i) => (i === 0 ? [Buffer.from(part)] : [Buffer.from([0xff, 0xfe]), Buffer.from(part)])),
    ),
    contentType: "application/json",
    status: 400,
    code: "validation_error",
  },
  { name: "valid JSON as text/plain", raw: JSON.stringify(validBody()), contentType: "text/plain", status: 400, code: "validation_error" },
  {
    name: "form-urlencoded",
    raw: "amount=1000&currency=GTQ&method_type=card",
    contentType: "application/x-www-form-urlencoded",
    status: 400,
    code: "validation_error",
  },
  { name: "no Content-Type", raw: JSON.stringify(validBody()), status: 400, code: "validation_error" },
  {
    name: "body over 64 KiB",
    raw: JSON.stringify(validBody({ description: long(70 * 1024) })),
    contentType: "application/json",
    status: 400,
    code: "validation_error",
  },
  { name: "body of 1 MiB", raw: JSON.stringify({ junk: long(1024 * 1024) }), contentType: "application/json", status: 400, code: "validation_error" },
  // Idempotency-Key
  { name: "Idempotency-Key longer than 255", body: validBody(), idem: long(256), status: 400, code: "validation_error" },
  { name: "Idempotency-Key with a tab", body: validBody(), idem: "abcd\tefgh-1234", status: 400, code: "validation_error" },
  { name: "Idempotency-Key non-ASCII", body: validBody(), idem: "clave-\u00e9\u00e9\u00e9-1234", status: 400, code: "validation_error" },
  { name: "Idempotency-Key missing", body: validBody(), idem: null, status: 400, code: "idempotency_key_required" },
];

describe("POST /v1/payments with malformed input", () => {
  test.each(CREATE_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const s = stack();
    const before = await s.paymentCount();
    const res = await s.http.post("/v1/payments", {
      key: m.testApiKey,
      idem: c.idem === null ? undefined : (c.idem ?? newIdemKey()),
      body: c.raw ?? c.body,
      headers: c.contentType ? { "content-type": c.contentType } : {},
    });
    expectError(res, c.status, c.code);
    expect(await s.paymentCount()).toBe(before);
  });

  test("a 255-character Idempotency-Key is accepted", async () => {
    const s = stack();
    const res = await s.http.createPayment(m.testApiKey, validBody(), { idem: newIdemKey() + long(255 - 36) });
    expect(res.status, res.text).toBe(201);
  });
});

describe("GET /v1/payments with bad query parameters", () => {
  const cases: Array<[string, string]> = [
    ["limit=0", "limit=0"],
    ["limit=101", "limit=101"],
    ["limit=abc", "limit=abc"],
    ["limit=1.5", "limit=1.5"],
    ["limit=-1", "limit=-1"],
    ["limit empty", "limit="],
    ["limit=1e2", "limit=1e2"],
    ["limit=0x10", "limit=0x10"],
    ["limit of 22 digits", "limit=9999999999999999999999"],
    ["limit twice", "limit=1&limit=2"],
    ["status unknown", "status=paid"],
    ["status uppercase", "status=CAPTURED"],
    ["status empty", "status="],
    ["status twice", "status=created&status=failed"],
    ["starting_after unknown id", `starting_after=${randomPaymentId()}`],
    ["starting_after malformed", "starting_after=garbage"],
    ["starting_after empty", "starting_after="],
    // Another merchant's or mode's id: auth-isolation.test.ts.
  ];
  test.each(cases)("%s → 400 validation_error", async (_name, q) => {
    const s = stack();
    const res = await s.http.listPayments(m.testApiKey, q);
    expectError(res, 400, "validation_error");
  });

  test("bad query parameters without credentials → 401 (auth first)", async () => {
    const s = stack();
    expectError(await s.http.listPayments(undefined, "limit=abc"), 401, "unauthorized");
  });
});

describe("nothing a client sends yields a 500", () => {
  const json = { "content-type": "application/json" };
  const PAY = "/v1/payments/pay_" + "a".repeat(24);
  // Unknown routes and methods answer validation_error with 404/405 (DESIGN §4 Validation, README).
  const odd: Array<[string, number, string, string, string, Record<string, string>, string | undefined]> = [
    ["unknown route", 404, "validation_error", "GET", "/v1/nothing", {}, undefined],
    ["unknown version", 404, "validation_error", "GET", "/v2/payments", {}, undefined],
    ["root", 404, "validation_error", "GET", "/", {}, undefined],
    ["PUT on payments", 405, "validation_error", "PUT", "/v1/payments", {}, "{}"],
    ["DELETE a payment", 405, "validation_error", "DELETE", PAY, {}, undefined],
    ["POST to a payment id", 405, "validation_error", "POST", PAY, {}, "{}"],
    ["bad percent-encoding in id", 404, "unknown_payment", "GET", "/v1/payments/%E0%A4%A", {}, undefined],
    ["bad percent-encoding in checkout", 404, "unknown_payment", "GET", "/v1/checkout/%E0%A4%A", {}, undefined],
    ["bad percent-encoding in session", 404, "unknown_payment", "GET", "/v1/payments/%ZZ/checkout_session", {}, undefined],
    ["bad percent-encoding in query", 400, "validation_error", "GET", "/v1/payments?limit=%ZZ", {}, undefined],
    ["very long path", 404, "unknown_payment", "GET", "/v1/payments/" + "a".repeat(6000), {}, undefined],
    ["JSON with deep nesting", 400, "validation_error", "POST", "/v1/payments", json, "[".repeat(5000) + "]".repeat(5000)],
    ["JSON __proto__", 400, "validation_error", "POST", "/v1/payments", json, '{"__proto__":{"amount":"1000"},"constructor":{"prototype":{}}}'],
    [
      "content-type json with gzip encoding lie",
      400,
      "validation_error",
      "POST",
      "/v1/payments",
      { ...json, "content-encoding": "gzip" },
      JSON.stringify(validBody()),
    ],
  ];
  test.each(odd)("%s → %i %s", async (_name, status, code, method, path, headers, body) => {
    const s = stack();
    const before = await s.paymentCount();
    const res = await s.http.request(method, path, { key: m.testApiKey, idem: newIdemKey(), headers, body });
    expectError(res, status, code);
    expect(await s.paymentCount()).toBe(before);
  });

  test.each([
    ["application/json; charset=klingon", 400],
    ["application/json; charset=latin1", 400],
    ["application/json; charset=UTF-8", 201],
    ["application/json; charset=utf-8", 201],
    ["application/json", 201],
  ])("Content-Type %s → %i (JSON is UTF-8; another declared charset is refused, never reinterpreted)", async (contentType, status) => {
    const s = stack();
    const before = await s.paymentCount();
    const res = await s.http.post("/v1/payments", {
      key: m.testApiKey,
      idem: newIdemKey(),
      headers: { "content-type": contentType },
      body: JSON.stringify(validBody()),
    });
    if (status === 201) {
      expect(res.status, res.text).toBe(201);
      expect(await s.paymentCount()).toBe(before + 1);
    } else {
      expectError(res, 400, "validation_error");
      expect(await s.paymentCount()).toBe(before);
    }
  });
});

// Found by fuzzing (DESIGN §4 Validation): text the database cannot hold or that would be
// silently altered, and a key given twice, are each a validation_error naming the problem.
describe("NUL, unpaired surrogates and duplicate keys", () => {
  const text = (body: Record<string, unknown>) => JSON.stringify(body);
  const withCustomer = validBody({ customer: { email: "ana@example.com", name: "Ana López" } });
  const cases: Array<[string, string, RegExp]> = [
    ["\\u0000 in description", text(validBody({ description: "Pedido\u0000 1" })), /^description must not contain NUL/],
    ["\\u0000 in success_url", text(validBody({ success_url: "https://shop.example.com/thanks\u0000" })), /^success_url must not contain NUL/],
    ["\\u0000 in cancel_url", text(validBody({ cancel_url: "https://shop.example.com/\u0000cart" })), /^cancel_url must not contain NUL/],
    ["\\u0000 in customer.name", text(validBody({ customer: { name: "Ana\u0000" } })), /^customer\.name must not contain NUL/],
    ["\\u0000 in customer.email", text(validBody({ customer: { email: "ana\u0000@example.com" } })), /^customer\.email /],
    ["\\ud800x in description", text(validBody({ description: "@" })).replace("@", "\\ud800x"), /^description must be well-formed Unicode/],
    ["lone low surrogate in description", text(validBody({ description: "@" })).replace("@", "x\\udc00"), /^description must be well-formed Unicode/],
    ["surrogates in the wrong order", text(validBody({ description: "@" })).replace("@", "\\ude00\\ud83d"), /^description must be well-formed Unicode/],
    ["lone surrogate in customer.name", text(withCustomer).replace("Ana López", "Ana \\uD83D"), /^customer\.name must be well-formed Unicode/],
    ["lone surrogate in success_url", text(validBody()).replace("/thanks", "/\\ud800"), /^success_url must be well-formed Unicode/],
    ["lone surrogate in a key", text(validBody()).replace('"currency"', '"\\ud800"'), /^The body must be well-formed Unicode/],
    ["amount twice", text(validBody()).replace("{", '{"amount":"999999",'), /"amount" appears twice in the body/],
    ["amount twice, same value", text(validBody()).replace("{", '{"amount":"10000",'), /"amount" appears twice in the body/],
    ["amount twice, spelled with an escape", text(validBody()).replace("{", '{"amo\\u0075nt":"500",'), /"amount" appears twice in the body/],
    ["currency twice", text(validBody()).replace(/}$/, ',"currency":"USD"}'), /"currency" appears twice in the body/],
    ["customer.name twice", text(withCustomer).replace('"customer":{', '"customer":{"name":"Eva",'), /"name" appears twice in customer/],
    ["customer twice", text(withCustomer).replace(/}$/, ',"customer":{"name":"Eva"}}'), /"customer" appears twice in the body/],
  ];

  test.each(cases)("%s → 400 validation_error, nothing created", async (_name, raw, message) => {
    const s = stack();
    const before = await s.paymentCount();
    const res = await s.http.post("/v1/payments", { key: m.testApiKey, idem: newIdemKey(), body: raw, headers: { "content-type": "application/json" } });
    expectError(res, 400, "validation_error");
    expect(res.json.error.message).toMatch(message);
    expect(await s.paymentCount()).toBe(before);
  });

  test("a duplicate key is reported after the Idempotency-Key and the API key (DESIGN §4 check order)", async () => {
    const s = stack();
    const raw = JSON.stringify(validBody()).replace("{", '{"amount":"999999",');
    const headers = { "content-type": "application/json" };
    expectError(await s.http.post("/v1/payments", { key: m.testApiKey, body: raw, headers }), 400, "idempotency_key_required");
    expectError(await s.http.post("/v1/payments", { idem: newIdemKey(), body: raw, headers }), 401, "unauthorized");
    expectError(await s.http.post("/v1/payments", { key: "sk_test_" + "x".repeat(32), idem: newIdemKey(), body: raw, headers }), 401, "unauthorized");
  });

  test("escapes that spell well-formed text are accepted as that text", async () => {
    const s = stack();
    // Slashes escaped as some encoders do (PHP's json_encode), a surrogate pair, an accent, quotes, a backslash.
    const raw = JSON.stringify(validBody({ description: "@" }))
      .replace(/\//g, "\\/")
      .replace("@", String.raw`\ud83d\ude00 caf\u00e9 \"A\" \/ \\`);
    const res = await s.http.post("/v1/payments", { key: m.testApiKey, idem: newIdemKey(), body: raw, headers: { "content-type": "application/json" } });
    expect(res.status, res.text).toBe(201);
    expect(res.json.description).toBe('😀 café "A" / \\');
  });
});

// Seeded random mutations of a valid body: whatever a mutation makes of it, the answer is a 201
// (some mutations happen to stay valid) or a 4xx with a catalog code, never a 5xx, and exactly
// the 201s created payments. Reproduce or explore with BAD_INPUT_SEED=<n> (and BAD_INPUT_COUNT).
describe("random mutations of a valid body", () => {
  const seed = Number(process.env.BAD_INPUT_SEED ?? 20261121);
  const count = Number(process.env.BAD_INPUT_COUNT ?? 400);

  /** mulberry32: small, fast, and the same sequence for a seed on every machine. */
  function prng(start: number): () => number {
    let a = start >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function mutations(random: () => number): Buffer[] {
    const int = (n: number) => Math.floor(random() * n);
    const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;

    // The body as [key, raw JSON value] members, so mutations can target fields and still
    // produce text a JSON encoder never would (duplicate keys, raw escapes).
    type Members = Array<[string, string | Members]>;
    const base = (): Members => [
      ["amount", '"10000"'],
      ["currency", '"GTQ"'],
      ["method_type", '"card"'],
      ["success_url", '"https://shop.example.com/thanks?order=A-1"'],
      ["cancel_url", '"https://shop.example.com/cart"'],
      ["description", '"Pedido A-1: café 454 g"'],
      [
        "customer",
        [
          ["email", '"ana@example.com"'],
          ["name", '"Ana López"'],
        ],
      ],
    ];
    const render = (members: Members): string => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${typeof v === "string" ? v : render(v)}`).join(",")}}`;

    const junkValues = [
      "1",
      "-0",
      "1e400",
      "-1e400",
      "9".repeat(400),
      "0.1",
      "10000",
      `"${"9".repeat(400)}"`,
      '"-1"',
      '"1e3"',
      "true",
      "false",
      "null",
      "[]",
      "{}",
      '""',
      '" "',
      '["10000"]',
      '{"value":"10000"}',
      "[".repeat(300) + "]".repeat(300),
      '{"a":{"b":{"c":[1,{"d":null}]}}}',
      '"GTQ"',
      '"USD"',
      '"EUR"',
      '"bank_transfer"',
      '"https://x.example/"',
      '"ftp://x"',
      `"${"a".repeat(600)}"`,
    ];
    const escapes = [
      String.raw`\u0000`,
      String.raw`\ud800`,
      String.raw`\udfff`,
      String.raw`\ud83d\ude00`,
      String.raw`\"`,
      String.raw`\\`,
      String.raw`\n`,
      String.raw`\u`,
      "\\",
      String.raw`\x41`,
    ];
    const tokens = ['"', "{", "}", "[", "]", "\\", ",", ":", String.raw`\"`, "null", " ", '""', "{}", String.raw`\u0000`];
    const badUtf8 = [[0xff], [0xfe, 0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80], [0x00]];

    const member = (members: Members): { list: Members; i: number } => {
      const customer = members.find(([k, v]) => k === "customer" && typeof v !== "string");
      const list = customer && random() < 0.3 ? (customer[1] as Members) : members;
      return { list, i: int(list.length) };
    };
    const structural: Array<(members: Members) => void> = [
      (ms) => {
        const { list, i } = member(ms);
        if (list[i]) list[i][1] = pick(junkValues);
      }, // wrong type / huge number / nested junk
      (ms) => {
        // an escape inside a string value
        const { list, i } = member(ms);
        const v = list[i]?.[1];
        if (typeof v === "string" && v.startsWith('"') && v.length > 2) {
          const at = 1 + int(v.length - 2);
          list[i]![1] = v.slice(0, at) + pick(escapes) + v.slice(at);
        }
      },
      (ms) => {
        const { list, i } = member(ms);
        if (list[i]) list.splice(int(list.length + 1), 0, [list[i][0], random() < 0.5 ? list[i][1] : pick(junkValues)]);
      }, // a key twice
      (ms) => {
        const { list, i } = member(ms);
        list.splice(i, 1);
      }, // a field missing
      (ms) => {
        const { list } = member(ms);
        list.push([pick(["metadata", "Amount", "amount ", "__proto__", "constructor", "amo\u0000unt", ""]), pick(junkValues)]);
      },
    ];
    const bytewise: Array<(b: Buffer) => Buffer> = [
      (b) => {
        const c = Buffer.from(b);
        const i = int(c.length);
        c[i] = c[i]! ^ (1 << int(8));
        return c;
      }, // bit flip
      (b) => {
        const c = Buffer.from(b);
        c[int(c.length)] = int(256);
        return c;
      }, // random byte
      (b) => {
        const i = int(b.length);
        return Buffer.concat([b.subarray(0, i), b.subarray(i + 1 + int(8))]);
      }, // deletion
      (b) => b.subarray(0, int(b.length)), // truncation
      (b) => {
        const i = int(b.length + 1);
        return Buffer.concat([b.subarray(0, i), Buffer.from(pick(tokens)), b.subarray(i)]);
      }, // inserted token
      (b) => {
        const i = int(b.length + 1);
        return Buffer.concat([b.subarray(0, i), Buffer.from(pick(badUtf8)), b.subarray(i)]);
      }, // invalid UTF-8
    ];

    const bodies: Buffer[] = [];
    for (let n = 0; n < count; n++) {
      const members = base();
      const kind = random();
      const structuralSteps = kind < 0.35 ? 0 : 1 + int(3);
      const byteSteps = kind < 0.35 ? 1 + int(3) : kind < 0.75 ? 0 : 1;
      for (let k = 0; k < structuralSteps; k++) pick(structural)(members);
      let body: Buffer = Buffer.from(render(members), "utf8");
      for (let k = 0; k < byteSteps; k++) body = pick(bytewise)(body);
      bodies.push(body);
    }
    return bodies;
  }

  test(`${count} mutated bodies (seed ${seed}): no 5xx, a catalog 4xx or a 201, payments created = 201s`, async () => {
    const s = stack();
    const bodies = mutations(prng(seed));
    const before = await s.paymentCount();
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < bodies.length) {
        const n = next++;
        const body = bodies[n]!;
        const res = await s.http.post("/v1/payments", { key: m.testApiKey, idem: newIdemKey(), body, headers: { "content-type": "application/json" } });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const code = res.json?.error?.code;
        const ok = res.status === 201 || (res.status >= 400 && res.status < 500 && (ERROR_CODES as readonly string[]).includes(code));
        if (!ok) problems.push(`#${n} → ${res.status} ${res.text.slice(0, 200)}\n    body (base64) ${body.toString("base64")}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const created = statuses.get(201) ?? 0;
    const summary = `seed ${seed} (BAD_INPUT_SEED to replay); statuses ${JSON.stringify(Object.fromEntries(statuses))}`;
    expect(problems, `${summary}\n${problems.slice(0, 10).join("\n")}`).toEqual([]);
    expect(await s.paymentCount(), summary).toBe(before + created);
  });
});
