// The `paytami` operator CLI (DESIGN §3), run as a real process against a real stack: the --json
// contract of every command (exactly one JSON object on stdout; exit 0, or {"error":{"code","message"}}
// and exit 1), usage mistakes as validation_error without a word on stderr, the core's catalog codes,
// an unreachable core, the connection defaults from dev.json, --help at every level, and the human
// output.

import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ERROR_CODES } from "../proto/error-catalog.ts";
import { SIMULATION_STEP_NAMES, type SimulationStepName } from "../proto/simulation-steps.ts";
import { freePort } from "../core/src/devstack/free-port.ts";
import { REPO_ROOT } from "../core/src/devstack/services.ts";
import { createOk, CREATED_AT_RE, expectPaymentShape, PAYMENT_ID_RE, randomPaymentId, useStack, validBody } from "./support/expect.ts";
import { nodeBinary, type Merchant } from "./support/stack.ts";

const stack = useStack();
const CLI = path.join(REPO_ROOT, "core/bin/paytami.mjs");
const MERCHANT_ID_RE = /^mer_[0-9a-f]{24}$/;
const KEY_ID_RE = /^key_[0-9a-f]{24}$/;
const TEST_KEY_RE = /^sk_test_[0-9A-Za-z]{32}$/;
const LIVE_KEY_RE = /^sk_live_[0-9A-Za-z]{32}$/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

// A PAYTAMI_HOME without dev.json, so only what a test passes decides where the CLI connects.
let emptyHome: string;
let unreachable: string;
let m: Merchant;

beforeAll(async () => {
  emptyHome = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-cli-home-"));
  unreachable = `127.0.0.1:${await freePort()}`;
  m = await stack().admin.createMerchant({ name: "Tienda CLI" });
});

afterAll(() => {
  fs.rmSync(emptyHome, { recursive: true, force: true });
});

/** This environment minus vitest's and anything that would pick a core, plus `env`. */
function cliEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith("VITEST") || k === "NODE_OPTIONS" || k === "CORE_GRPC_ADDR" || k === "PAYTAMI_INTERNAL_TOKEN") continue;
    out[k] = v;
  }
  return { ...out, PAYTAMI_HOME: emptyHome, ...env };
}

function run(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(nodeBinary(), [CLI, ...args], { cwd: REPO_ROOT, env: cliEnv(env), timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The CLI against the test stack. */
function paytami(...args: string[]): Promise<Run> {
  return run(args, { CORE_GRPC_ADDR: stack().coreGrpcAddr, PAYTAMI_INTERNAL_TOKEN: stack().internalToken });
}

function describeRun(r: Run): string {
  return `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
}

/** Exit 0, nothing on stderr, and stdout exactly one JSON object on one line; returns it. */
function jsonSuccess(r: Run): any {
  expect({ code: r.code, stderr: r.stderr }, describeRun(r)).toEqual({ code: 0, stderr: "" });
  expect(r.stdout.endsWith("\n") && r.stdout.indexOf("\n") === r.stdout.length - 1, describeRun(r)).toBe(true);
  const value = JSON.parse(r.stdout);
  expect(value !== null && typeof value === "object" && !Array.isArray(value), describeRun(r)).toBe(true);
  return value;
}

/** Exit 1, nothing on stderr, stdout exactly {"error":{"code","message"}} on one line with `code`. */
function jsonError(r: Run, code: string): string {
  expect({ code: r.code, stderr: r.stderr }, describeRun(r)).toEqual({ code: 1, stderr: "" });
  expect(r.stdout.indexOf("\n"), describeRun(r)).toBe(r.stdout.length - 1);
  const value = JSON.parse(r.stdout);
  expect(Object.keys(value), describeRun(r)).toEqual(["error"]);
  expect(Object.keys(value.error), describeRun(r)).toEqual(["code", "message"]);
  expect(value.error.code, describeRun(r)).toBe(code);
  expect(ERROR_CODES as readonly string[]).toContain(value.error.code);
  expect(typeof value.error.message === "string" && value.error.message.length > 0, describeRun(r)).toBe(true);
  return value.error.message;
}

describe("--json output of each command", () => {
  test("merchants create → {merchant_id, test_api_key, live_api_key}; the merchant has the given currencies and methods", async () => {
    const created = jsonSuccess(await paytami("merchants", "create", "--name", "Tienda Uno", "--currencies", "GTQ", "--methods", "card", "--json"));
    expect(Object.keys(created)).toEqual(["merchant_id", "test_api_key", "live_api_key"]);
    expect(created.merchant_id).toMatch(MERCHANT_ID_RE);
    expect(created.test_api_key).toMatch(TEST_KEY_RE);
    expect(created.live_api_key).toMatch(LIVE_KEY_RE);

    const s = stack();
    await createOk(s.http, created.test_api_key);
    expect((await s.http.createPayment(created.test_api_key, validBody({ currency: "USD", amount: "1000" }))).json.error.code).toBe("currency_not_supported");
    expect((await s.http.createPayment(created.test_api_key, validBody({ method_type: "bank_transfer" }))).json.error.code).toBe("method_not_supported");
    expect((await s.http.listPayments(created.live_api_key)).status).toBe(200);
  });

  test("keys create → {id, api_key, mode, expires_at}; the key works", async () => {
    const live = jsonSuccess(await paytami("keys", "create", "--merchant", m.merchantId, "--mode", "live", "--expires-at", "2030-01-01T00:00:00Z", "--json"));
    expect(Object.keys(live)).toEqual(["id", "api_key", "mode", "expires_at"]);
    expect(live.id).toMatch(KEY_ID_RE);
    expect(live.api_key).toMatch(LIVE_KEY_RE);
    expect(live.mode).toBe("live");
    expect(live.expires_at).toMatch(CREATED_AT_RE);
    expect(live.expires_at).toBe("2030-01-01T00:00:00.000Z");
    expect((await stack().http.listPayments(live.api_key)).status).toBe(200);

    // --json is global: it may come first, and a key without --expires-at never expires.
    const test = jsonSuccess(await paytami("--json", "keys", "create", "--mode", "test", "--merchant", m.merchantId));
    expect(Object.keys(test)).toEqual(["id", "api_key", "mode", "expires_at"]);
    expect(test.api_key).toMatch(TEST_KEY_RE);
    expect(test.mode).toBe("test");
    expect(test.expires_at).toBeNull();
    await createOk(stack().http, test.api_key);
  });

  test("keys revoke → {id, revoked: true}; the key stops working", async () => {
    const key = await stack().admin.createKey(m.merchantId, "test");
    expect((await stack().http.listPayments(key.apiKey)).status).toBe(200);
    const revoked = jsonSuccess(await paytami("keys", "revoke", key.id, "--json"));
    expect(revoked).toEqual({ id: key.id, revoked: true });
    expect(Object.keys(revoked)).toEqual(["id", "revoked"]);
    expect((await stack().http.listPayments(key.apiKey)).status).toBe(401);
  });

  test("keys roll → {id, expires_at, new_key}; both keys work until the old one's expiry; a time past API_KEY_ROLL_MAX is refused", async () => {
    const key = await stack().admin.createKey(m.merchantId, "test");
    const before = Date.now();
    const rolled = jsonSuccess(await paytami("keys", "roll", key.id, "--expires-in", "1h", "--json"));
    expect(Object.keys(rolled)).toEqual(["id", "expires_at", "new_key"]);
    expect(rolled.id).toBe(key.id);
    expect(Date.parse(rolled.expires_at) - before).toBeGreaterThanOrEqual(3_600_000);
    expect(Date.parse(rolled.expires_at) - Date.now()).toBeLessThanOrEqual(3_600_000);
    expect(Object.keys(rolled.new_key)).toEqual(["id", "api_key", "mode", "expires_at"]);
    expect(rolled.new_key).toMatchObject({ mode: "test", expires_at: null });
    expect(rolled.new_key.api_key).toMatch(TEST_KEY_RE);
    expect((await stack().http.listPayments(key.apiKey)).status).toBe(200);
    expect((await stack().http.listPayments(rolled.new_key.api_key)).status).toBe(200);

    const now = jsonSuccess(await paytami("keys", "roll", rolled.new_key.id, "--expires-in", "0", "--json"));
    expect((await stack().http.listPayments(rolled.new_key.api_key)).status).toBe(401);
    expect((await stack().http.listPayments(now.new_key.api_key)).status).toBe(200);

    jsonError(await paytami("keys", "roll", now.new_key.id, "--expires-in", "8d", "--json"), "validation_error");
    jsonError(await paytami("keys", "roll", now.new_key.id, "--expires-in", "soon", "--json"), "validation_error");
    expect((await stack().http.listPayments(now.new_key.api_key)).status).toBe(200);
  });

  // Typed by the shared table: a step added there without an expectation here does not compile.
  const REACHES: Record<SimulationStepName, { before: SimulationStepName[]; status: string }> = {
    process: { before: [], status: "processing" },
    authorize: { before: [], status: "authorized" },
    succeed: { before: [], status: "captured" },
    fail: { before: [], status: "failed" },
    cancel: { before: [], status: "canceled" },
    expire: { before: [], status: "expired" },
    settle: { before: ["succeed"], status: "available_to_merchant" },
  };

  test.each(SIMULATION_STEP_NAMES)("simulate payment … %s → the Payment object (spec 2.1) after the step", async (step) => {
    const s = stack();
    const created = await createOk(s.http, m.testApiKey, { description: "CLI" });
    for (const before of REACHES[step].before) await s.admin.simulate(created.id, before);
    const payment = jsonSuccess(await paytami("simulate", "payment", created.id, step, "--json"));
    expectPaymentShape(payment, { publicBaseUrl: s.publicBaseUrl, withDescription: true });
    expect(payment.status).toBe(REACHES[step].status);
    // The same object, keys in the same order, as the REST API answers with.
    const fetched = await s.http.getPayment(m.testApiKey, created.id);
    expect(JSON.stringify(payment)).toBe(JSON.stringify(fetched.json));
  });
});

describe("errors in --json mode", () => {
  test("an unknown payment is the core's unknown_payment", async () => {
    const message = jsonError(await paytami("simulate", "payment", randomPaymentId(), "succeed", "--json"), "unknown_payment");
    expect(message).not.toMatch(/^error:/);
  });

  test("a step the state table rejects is the core's payment_not_payable; the payment is unchanged", async () => {
    const s = stack();
    const created = await createOk(s.http, m.testApiKey);
    await s.admin.simulate(created.id, "fail");
    jsonError(await paytami("simulate", "payment", created.id, "succeed", "--json"), "payment_not_payable");
    expect((await s.http.getPayment(m.testApiKey, created.id)).json.status).toBe("failed");
  });

  test("values the core rejects are the core's validation_error", async () => {
    jsonError(await paytami("keys", "create", "--merchant", m.merchantId, "--mode", "test", "--expires-at", "soon", "--json"), "validation_error");
    jsonError(await paytami("keys", "revoke", "key_000000000000000000000000", "--json"), "validation_error");
  });

  // Usage mistakes never reach the core: against an unreachable one they are still validation_error.
  describe.concurrent("usage mistakes are validation_error, stdout one JSON object, stderr empty", () => {
    test.each([
      ["no command", ["--json"]],
      ["unknown command", ["refunds", "create", "--json"]],
      ["unknown subcommand", ["keys", "rotate", "--json"]],
      ["missing subcommand", ["keys", "--json"]],
      ["unknown option", ["keys", "create", "--merchant", "mer_x", "--mode", "test", "--colour", "red", "--json"]],
      ["missing required option", ["keys", "create", "--mode", "test", "--json"]],
      ["option without its value", ["keys", "create", "--mode", "test", "--json", "--merchant"]],
      ["bad choice for an option", ["keys", "create", "--merchant", "mer_x", "--mode", "staging", "--json"]],
      ["blank name", ["merchants", "create", "--name", " ", "--json"]],
      ["unknown currency", ["merchants", "create", "--name", "X", "--currencies", "GTQ,EUR", "--json"]],
      ["unknown method", ["merchants", "create", "--name", "X", "--methods", "cash", "--json"]],
      ["missing argument", ["keys", "revoke", "--json"]],
      ["excess argument", ["keys", "revoke", "key_a", "key_b", "--json"]],
      ["unknown step", ["simulate", "payment", "pay_x", "refund", "--json"]],
      ["missing step", ["--json", "simulate", "payment", "pay_x"]],
      ["unknown global option", ["--verbose", "--json", "keys", "revoke", "key_a"]],
    ])("%s", async (_label, args) => {
      jsonError(await run(args, { CORE_GRPC_ADDR: unreachable, PAYTAMI_INTERNAL_TOKEN: "x" }), "validation_error");
    });
  });

  test("a wrong or missing internal token is unauthorized", async () => {
    const args = ["merchants", "create", "--name", "Intruso", "--json"];
    jsonError(await run(args, { CORE_GRPC_ADDR: stack().coreGrpcAddr, PAYTAMI_INTERNAL_TOKEN: "not-the-token" }), "unauthorized");
    jsonError(await run(args, { CORE_GRPC_ADDR: stack().coreGrpcAddr }), "unauthorized");
    expect(await stack().sql("SELECT id FROM merchants WHERE name = 'Intruso'")).toEqual([]);
  });

  test("an unreachable core is processor_unavailable", async () => {
    const message = jsonError(
      await run(["keys", "revoke", "key_a", "--json"], { CORE_GRPC_ADDR: unreachable, PAYTAMI_INTERNAL_TOKEN: "x" }),
      "processor_unavailable",
    );
    expect(message).toContain(unreachable);
  });
});

describe("connection defaults", () => {
  test("CORE_GRPC_ADDR and PAYTAMI_INTERNAL_TOKEN default from $PAYTAMI_HOME/dev.json", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-cli-dev-"));
    try {
      fs.writeFileSync(path.join(home, "dev.json"), JSON.stringify({ core_grpc: stack().coreGrpcAddr, internal_token: stack().internalToken }));
      const revoked = jsonSuccess(await run(["keys", "revoke", (await stack().admin.createKey(m.merchantId, "test")).id, "--json"], { PAYTAMI_HOME: home }));
      expect(revoked.revoked).toBe(true);
      // The environment wins over dev.json.
      jsonError(await run(["keys", "revoke", "key_a", "--json"], { PAYTAMI_HOME: home, CORE_GRPC_ADDR: unreachable }), "processor_unavailable");
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe.concurrent("--help at every level prints usage on stdout and exits 0", () => {
  test.each([
    [["--help"], "Usage: paytami [options] [command]", ["merchants", "keys", "simulate", "--json"]],
    [["-h"], "Usage: paytami [options] [command]", ["merchants", "keys", "simulate"]],
    [["help"], "Usage: paytami [options] [command]", ["merchants", "keys", "simulate"]],
    [["merchants", "--help"], "Usage: paytami merchants", ["create"]],
    [["keys", "--help"], "Usage: paytami keys", ["create", "revoke"]],
    [["help", "keys"], "Usage: paytami keys", ["create", "revoke"]],
    [["simulate", "--help"], "Usage: paytami simulate", ["payment"]],
    [["merchants", "create", "--help"], "Usage: paytami merchants create [options]", ["--name <name>", "--currencies <list>", "--methods <list>"]],
    [["keys", "create", "--help"], "Usage: paytami keys create [options]", ["--merchant <merchant-id>", "--mode <mode>", "--expires-at <iso>"]],
    [["keys", "revoke", "--help"], "Usage: paytami keys revoke [options] <key-id>", []],
    [["simulate", "payment", "--help"], "Usage: paytami simulate payment [options] <payment-id> <step>", SIMULATION_STEP_NAMES.map((step) => `"${step}"`)],
    // Help wins over --json and over a missing required option.
    [["keys", "create", "--json", "--help"], "Usage: paytami keys create [options]", []],
  ])("paytami %j", async (args, usage, mentions) => {
    const r = await run(args, { CORE_GRPC_ADDR: unreachable });
    expect({ code: r.code, stderr: r.stderr }, describeRun(r)).toEqual({ code: 0, stderr: "" });
    expect(r.stdout.startsWith(`${usage}`), r.stdout).toBe(true);
    for (const mention of mentions) expect(r.stdout).toContain(mention);
  });
});

describe("human output (without --json)", () => {
  test("results are text on stdout, nothing on stderr", async () => {
    const created = await paytami("merchants", "create", "--name", "Tienda Texto");
    expect({ code: created.code, stderr: created.stderr }, describeRun(created)).toEqual({ code: 0, stderr: "" });
    expect(created.stdout).toMatch(/^Created merchant mer_[0-9a-f]{24}\n {2}test key: sk_test_\w{32}\n {2}live key: sk_live_\w{32}\n$/);

    const payment = await createOk(stack().http, m.testApiKey);
    const simulated = await paytami("simulate", "payment", payment.id, "succeed");
    expect({ code: simulated.code, stderr: simulated.stderr }, describeRun(simulated)).toEqual({ code: 0, stderr: "" });
    expect(simulated.stdout).toContain(`${payment.id} is now captured\n`);
    expect(simulated.stdout).toMatch(/^ {2}amount +10000$/m);
    expect(payment.id).toMatch(PAYMENT_ID_RE);
  });

  test("errors are `paytami: <code>: <message>` on stderr, nothing on stdout, exit 1", async () => {
    const unknown = await paytami("simulate", "payment", randomPaymentId(), "succeed");
    expect({ code: unknown.code, stdout: unknown.stdout }, describeRun(unknown)).toEqual({ code: 1, stdout: "" });
    expect(unknown.stderr).toMatch(/^paytami: unknown_payment: \S/);

    const down = await run(["keys", "revoke", "key_a"], { CORE_GRPC_ADDR: unreachable });
    expect({ code: down.code, stdout: down.stdout }, describeRun(down)).toEqual({ code: 1, stdout: "" });
    expect(down.stderr).toMatch(/^paytami: processor_unavailable: core at 127\.0\.0\.1:\d+ is unreachable/);
  });

  test("a usage mistake names the problem and shows the command's usage on stderr, exit 1", async () => {
    const r = await run(["keys", "create", "--merchant", "mer_x", "--mode", "staging"], { CORE_GRPC_ADDR: unreachable });
    expect({ code: r.code, stdout: r.stdout }, describeRun(r)).toEqual({ code: 1, stdout: "" });
    expect(r.stderr).toMatch(/^paytami: validation_error: option '--mode <mode>' argument 'staging' is invalid/);
    expect(r.stderr).toContain("Usage: paytami keys create [options]");
  });
});

describe("links", () => {
  test("links create → the public view plus id; links deactivate → inactive; show and list give the link object", async () => {
    const created = jsonSuccess(
      await paytami(
        "links",
        "create",
        "--merchant",
        m.merchantId,
        "--mode",
        "test",
        "--title",
        "Donación",
        "--currency",
        "GTQ",
        "--min",
        "1000",
        "--max",
        "500000",
        "--max-payments",
        "5",
        "--json",
      ),
    );
    expect(Object.keys(created)).toEqual([
      "id",
      "title",
      "description",
      "merchant_trade_name",
      "currency",
      "amount_type",
      "fixed_amount_minor",
      "min_amount_minor",
      "max_amount_minor",
      "payable",
      "not_payable_reason",
    ]);
    expect(created).toMatchObject({
      title: "Donación",
      description: "",
      merchant_trade_name: "Tienda CLI",
      currency: "GTQ",
      amount_type: "variable",
      fixed_amount_minor: null,
      min_amount_minor: "1000",
      max_amount_minor: "500000",
      payable: true,
      not_payable_reason: null,
    });
    expect(created.id).toMatch(/^link_[0-9a-f]{24}$/);
    const shown = jsonSuccess(await paytami("links", "show", created.id, "--json"));
    expect(shown).toMatchObject({ id: created.id, mode: "test", active: true, max_payments: 5, succeeded_payments: 0 });
    const listed = jsonSuccess(await paytami("links", "list", "--merchant", m.merchantId, "--mode", "test", "--json"));
    expect(listed.data.map((l: any) => l.id)).toContain(created.id);
    const deactivated = jsonSuccess(await paytami("links", "deactivate", created.id, "--json"));
    expect(deactivated).toEqual({ ...created, payable: false, not_payable_reason: "inactive" });
  });

  test("errors: unknown link, amount outside the currency limits, a usage mistake", async () => {
    jsonError(await paytami("links", "deactivate", "link_000000000000000000000000", "--json"), "unknown_payment_link");
    jsonError(
      await paytami("links", "create", "--merchant", m.merchantId, "--mode", "test", "--title", "X", "--currency", "GTQ", "--amount", "1", "--json"),
      "amount_below_minimum",
    );
    jsonError(
      await paytami("links", "create", "--merchant", m.merchantId, "--mode", "staging", "--title", "X", "--currency", "GTQ", "--amount", "1000", "--json"),
      "validation_error",
    );
  });
});

describe("merchants set-return-origins", () => {
  test('→ {merchant_id, origins} in canonical form, http allowed; a path, a wildcard or an unknown merchant is a validation_error; "" clears them', async () => {
    const set = jsonSuccess(
      await paytami(
        "merchants",
        "set-return-origins",
        m.merchantId,
        "--origins",
        "https://Shop.example/,http://localhost:3000, https://www.shop.example:8443",
        "--json",
      ),
    );
    expect(set).toEqual({ merchant_id: m.merchantId, origins: ["https://shop.example", "http://localhost:3000", "https://www.shop.example:8443"] });
    const stored = async () =>
      (await stack().sql<{ return_origins: string[] }>("select return_origins from merchants where id = $1", [m.merchantId]))[0]!.return_origins;
    expect(await stored()).toEqual(set.origins);
    expect(
      jsonError(await paytami("merchants", "set-return-origins", m.merchantId, "--origins", "https://shop.example/thanks", "--json"), "validation_error"),
    ).toBe(`"https://shop.example/thanks" is not an http or https origin such as https://shop.example.`);
    jsonError(await paytami("merchants", "set-return-origins", m.merchantId, "--origins", "https://*.shop.example", "--json"), "validation_error");
    jsonError(await paytami("merchants", "set-return-origins", "mer_000000000000000000000000", "--origins", "https://a.example", "--json"), "validation_error");
    expect(await stored()).toEqual(set.origins);
    const text = await paytami("merchants", "set-return-origins", m.merchantId, "--origins", "https://shop.example");
    expect(text, describeRun(text)).toMatchObject({ code: 0, stderr: "", stdout: `Return origins of ${m.merchantId}:\n  https://shop.example\n` });
    expect(jsonSuccess(await paytami("merchants", "set-return-origins", m.merchantId, "--origins", "", "--json"))).toEqual({
      merchant_id: m.merchantId,
      origins: [],
    });
    expect(await stored()).toEqual([]);
  });
});

describe("merchants create refuses bidi controls in the name", () => {
  test.each([
    ["U+202E", "Tienda\u202Eodagac"],
    ["U+2066", "\u2066Tienda"],
    ["U+200F", "Tienda\u200F"],
    ["U+061C", "Tienda\u061C"],
  ])("%s", async (_name, name) => {
    expect(jsonError(await paytami("merchants", "create", "--name", name, "--json"), "validation_error")).toMatch(
      /^name must not contain bidirectional control characters/,
    );
  });
});

describe("merchants set-embed-origins", () => {
  test('→ {merchant_id, origins} in canonical form; an http origin is a validation_error; "" clears them', async () => {
    const set = jsonSuccess(
      await paytami("merchants", "set-embed-origins", m.merchantId, "--origins", "https://shop.example,https://www.shop.example:8443/", "--json"),
    );
    expect(set).toEqual({ merchant_id: m.merchantId, origins: ["https://shop.example", "https://www.shop.example:8443"] });
    jsonError(await paytami("merchants", "set-embed-origins", m.merchantId, "--origins", "http://shop.example", "--json"), "validation_error");
    jsonError(await paytami("merchants", "set-embed-origins", "mer_000000000000000000000000", "--origins", "https://a.example", "--json"), "validation_error");
    expect(jsonSuccess(await paytami("merchants", "set-embed-origins", m.merchantId, "--origins", "", "--json"))).toEqual({
      merchant_id: m.merchantId,
      origins: [],
    });
  });
});
