import { spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { CENSOR, createLogger, MAX_DEPTH, redactSecrets } from "./logger.ts";

/** A logger writing into an array; each entry is one parsed log line. */
function capture(name = "test") {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const log = createLogger(name, {
    write(line: string) {
      raw.push(line);
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
  return { log, lines, raw };
}

const SECRET = "sk_test_abcdefghijklmnopqrstuvwxyz012345";

describe("log redaction", () => {
  test("a card number and cvc deep inside a request body are censored; ordinary fields survive", () => {
    const { log, lines, raw } = capture();
    log.info(
      {
        req: {
          method: "POST",
          url: "/v1/payments",
          headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" },
          body: { amount: "12345", currency: "GTQ", customer: { name: "Ana", email: "ana@example.com", card_number: "4242424242424242", cvc: "123" } },
        },
      },
      "request",
    );
    expect(lines[0]).toMatchObject({
      msg: "request",
      service: "test",
      req: {
        method: "POST",
        url: "/v1/payments",
        headers: { authorization: CENSOR, "content-type": "application/json" },
        body: { amount: "12345", currency: "GTQ", customer: { name: "Ana", email: "ana@example.com", card_number: CENSOR, cvc: CENSOR } },
      },
    });
    expect(raw[0]).not.toContain(SECRET);
    expect(raw[0]).not.toContain("4242424242424242");
  });

  test("every secret-looking key is censored at any depth, whatever its spelling", () => {
    const secrets = {
      apiKey: "a1",
      api_key: "a2",
      "x-api-key": "a3",
      testApiKey: "a4",
      live_api_key: "a5",
      authorization: "a6",
      Authorization: "a7",
      "proxy-authorization": "a8",
      cookie: "a9",
      internalToken: "b1",
      internal_token: "b2",
      "x-paytami-internal-token": "b3",
      PAYTAMI_INTERNAL_TOKEN: "b4",
      embedTokenSecret: "c1",
      embed_token_secret: "c2",
      EMBED_TOKEN_SECRET: "c3",
      secret: "d1",
      webhook_secret: "d2",
      signingSecret: "d3",
      card_number: "e1",
      cardNumber: "e2",
      cvc: "e3",
      cvv: "e4",
      card: { number: "e5", exp_month: 12 },
      password: "f1",
      db_password: "f2",
      token: "f3",
      access_token: "f4",
      refreshToken: "f5",
    };
    const { log, raw } = capture();
    log.info({ a: { b: { c: { ...secrets } } }, list: [{ nested: [{ ...secrets }] }], ...secrets }, "deep");
    for (const value of [
      "a1",
      "a2",
      "a3",
      "a4",
      "a5",
      "a6",
      "a7",
      "a8",
      "a9",
      "b1",
      "b2",
      "b3",
      "b4",
      "c1",
      "c2",
      "c3",
      "d1",
      "d2",
      "d3",
      "e1",
      "e2",
      "e3",
      "e4",
      "e5",
      "f1",
      "f2",
      "f3",
      "f4",
      "f5",
    ]) {
      expect(raw[0], value).not.toContain(`"${value}"`);
    }
    const line = JSON.parse(raw[0]!);
    expect(line.a.b.c.internal_token).toBe(CENSOR);
    expect(line.a.b.c.card).toEqual({ number: CENSOR, exp_month: 12 });
    expect(line.list[0].nested[0].secret).toBe(CENSOR);
  });

  test("ordinary fields pass unchanged, including ones that merely mention a secret word", () => {
    const ordinary = {
      payment_id: "pay_0123456789abcdef01234567",
      amount: "12345",
      count: 3,
      ok: true,
      none: null,
      api_key_id: "key_1",
      token_count: 2,
      embed_token_ttl_ms: 900000,
      idempotency_key: "idem-1",
      numbers: [1, 2, 3],
      number: 7,
      at: "2025-01-01T00:00:00.000Z",
      nested: { deeper: { deepest: { value: "kept" } } },
    };
    const { log, lines } = capture();
    log.info({ ...ordinary }, "ordinary");
    expect(lines[0]).toMatchObject(ordinary);
  });

  test("the caller's object is not modified", () => {
    const body = { customer: { card_number: "4242424242424242" }, headers: { authorization: "Bearer x" } };
    const snapshot = structuredClone(body);
    const { log } = capture();
    log.info({ body }, "x");
    expect(body).toEqual(snapshot);
  });

  test("what holds no secret is returned as is (no copy)", () => {
    const value = { a: { b: [1, { c: "d" }] } };
    expect(redactSecrets(value)).toBe(value);
  });

  test("child bindings are redacted too", () => {
    const { log, lines } = capture();
    log.child({ request_id: "r1", caller: { apiKey: SECRET } }).info("child");
    expect(lines[0]).toMatchObject({ request_id: "r1", caller: { apiKey: CENSOR } });
  });

  test("an Error keeps its type, message and stack; its secret fields and cause are redacted", () => {
    const { log, lines, raw } = capture();
    const cause = Object.assign(new Error("inner"), { config: { headers: { authorization: `Bearer ${SECRET}` } } });
    const err = Object.assign(new TypeError("boom", { cause }), { secret: SECRET, status: 500 });
    log.error({ err }, "failed");
    const logged = lines[0]!.err as any;
    expect(logged).toMatchObject({ type: "TypeError", secret: CENSOR, status: 500 });
    expect(logged.message).toMatch(/^boom/); // pino appends the cause's message
    expect(logged.stack).toContain("boom");
    expect(raw[0]).not.toContain(SECRET);
    expect(err.secret).toBe(SECRET);
  });

  test("objects with toJSON are redacted in what they print", () => {
    const { log, raw } = capture();
    const ctx = { toJSON: () => ({ request: { header: { authorization: `Bearer ${SECRET}` } } }) };
    log.info({ ctx, at: new Date(0) }, "ctx");
    expect(raw[0]).not.toContain(SECRET);
    expect(JSON.parse(raw[0]!).at).toBe("1970-01-01T00:00:00.000Z");
  });

  test("depth is bounded: what lies deeper is cut, not written unchecked; cycles end", () => {
    let deep: Record<string, unknown> = { secret: SECRET };
    for (let i = 0; i < MAX_DEPTH + 5; i++) deep = { next: deep };
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const { log, raw } = capture();
    log.info({ deep, cyclic }, "deep");
    expect(raw[0]).not.toContain(SECRET);
    expect(raw[0]).toContain("[too deep]");
  });
});

describe("card numbers in string values", () => {
  test.each([
    ["4242424242424242", "************4242"],
    ["4242 4242 4242 4242", "**** **** **** 4242"],
    ["4242-4242-4242-4242", "****-****-****-4242"],
    ["378282246310005", "***********0005"], // amex, 15 digits
    ["6011 1111 1111 1117", "**** **** **** 1117"],
    ["4222222222222", "*********2222"], // 13 digits
    ["6200000000000000000", "***************0000"], // 19 digits
    ["card 4242424242424242 exp 12/30", "card ************4242 exp 12/30"],
    ["4242 4242 4242 4242 123", "**** **** **** 4242 123"], // a number and its CVC
    ['{"number":"4000 0566 5566 5556"}', '{"number":"**** **** **** 5556"}'],
    ["a=4242424242424242&b=5555555555554444", "a=************4242&b=************4444"],
    ["4242424242424242 123abc", "************4242 123abc"],
  ])("%s is masked", (text, masked) => {
    const { log, lines, raw } = capture();
    log.info({ note: text, deep: { list: [text] } }, "x");
    expect(lines[0]).toMatchObject({ note: masked, deep: { list: [masked] } });
    expect(raw[0]).not.toContain(text);
  });

  test.each([
    "4242424242424241", // fails Luhn
    "424242424242", // 12 digits
    "42424242424242424242", // 20 digits, no card number between separators
    "pay_0123456789012345678abc", // digits glued to an id
    "12345678-1234-1234-abcd-0123456789ab", // a UUID whose digit groups pass Luhn (1234567812341232 would)
    "12345678-1234-1232-abcd-0123456789ab",
    "last-1234-5678-1234-1232", // a request id
    "2025-01-01T00:00:00.000Z",
    "+502 5555 1234",
    "amount 10000 GTQ",
    "1234 5678",
  ])("%s is left alone", (text) => {
    const value = { text };
    expect(redactSecrets(value)).toBe(value);
  });

  test("the message, its interpolation values and an error's message and stack are masked too", () => {
    const { log, lines, raw } = capture();
    log.info("charging 4242 4242 4242 4242 for %s", "5555555555554444");
    const err = new Error("processor said: card 4000056655665556 declined");
    log.error({ err }, "failed");
    expect(lines[0]!.msg).toBe("charging **** **** **** 4242 for ************4444");
    const logged = lines[1]!.err as { message: string; stack: string };
    expect(logged.message).toBe("processor said: card ************5556 declined");
    expect(logged.stack).toContain("************5556");
    for (const line of raw) for (const number of ["4242 4242 4242 4242", "5555555555554444", "4000056655665556"]) expect(line).not.toContain(number);
    expect(err.message).toContain("4000056655665556"); // the caller's error is not modified
  });
});

describe("the default destination", () => {
  test("writes each line before the call returns: a process killed right after logging has the line in its output", () => {
    // A pool thread's write (pino's default destination) would still be queued when SIGKILL lands.
    const script = `
      const { createLogger } = await import(${JSON.stringify(new URL("./logger.ts", import.meta.url).href)});
      const log = createLogger("crash");
      for (let i = 0; i < 50; i++) log.info({ i }, "before the crash");
      process.kill(process.pid, "SIGKILL");
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.signal).toBe("SIGKILL");
    const lines = run.stdout.trim().split("\n").filter(Boolean);
    expect(lines).toHaveLength(50);
    expect((JSON.parse(lines[49]!) as { i: number; msg: string }).i).toBe(49);
  });
});
