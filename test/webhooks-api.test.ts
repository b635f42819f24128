// Webhook endpoints (CLI, gRPC, tRPC), the events API (GET /v1/events, /v1/events/{id}) over the
// outbox event store, and `paytami trigger`, against a real stack.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AppRouter } from "../core/src/trpc/router.ts";
import { CoreError } from "../proto/core-error.ts";
import { Mode } from "../proto/gen/paytami/v1/enums.ts";
import { CREATED_AT_RE, createOk, expectError, useStack } from "./support/expect.ts";
import { type Merchant } from "./support/stack.ts";
import { runCliWith, type CliRun } from "./support/cli-run.ts";
import { trpcClient } from "./support/trpc.ts";

const stack = useStack();
const ENDPOINT_ID_RE = /^we_[0-9a-f]{24}$/;
const SECRET_RE = /^whsec_[A-Za-z0-9_-]{43}$/;
const EVENT_ID_RE = /^evt_[0-9a-f]{24}$/;

let home: string;
let m: Merchant;
let other: Merchant;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-webhooks-home-"));
  m = await stack().admin.createMerchant({ name: "Tienda Webhooks" });
  other = await stack().admin.createMerchant({ name: "Otra Tienda" });
});

afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

function paytami(...args: string[]): Promise<CliRun> {
  return runCliWith(stack(), { home }, [...args, "--json"]);
}

async function ok(...args: string[]): Promise<any> {
  const r = await paytami(...args);
  expect({ code: r.code, stderr: r.stderr }, r.stdout).toEqual({ code: 0, stderr: "" });
  return JSON.parse(r.stdout);
}

async function refused(code: string, ...args: string[]): Promise<string> {
  const r = await paytami(...args);
  expect(r.code, r.stdout).toBe(1);
  const body = JSON.parse(r.stdout);
  expect(body.error.code, r.stdout).toBe(code);
  return body.error.message as string;
}

const operator = () => trpcClient(stack(), stack().internalToken);

async function grpcCode(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof CoreError) return error.code;
    throw error;
  }
  throw new Error("the call succeeded");
}

describe("endpoints", () => {
  test("webhooks create --json prints exactly {id, url, enabled_events, secret}; list shows it without the secret", { timeout: 180_000 }, async () => {
    const created = await ok(
      "webhooks",
      "create",
      "--merchant",
      m.merchantId,
      "--mode",
      "test",
      "--url",
      "http://127.0.0.1:9/hook",
      "--events",
      "payment.succeeded,payment.failed",
    );
    expect(Object.keys(created)).toEqual(["id", "url", "enabled_events", "secret"]);
    expect(created.id).toMatch(ENDPOINT_ID_RE);
    expect(created.url).toBe("http://127.0.0.1:9/hook");
    expect(created.enabled_events).toEqual(["payment.succeeded", "payment.failed"]);
    expect(created.secret).toMatch(SECRET_RE);

    const all = await ok("webhooks", "create", "--merchant", m.merchantId, "--mode", "test", "--url", "https://93.184.216.34/all");
    expect(all.enabled_events).toEqual([]);
    expect(all.secret).not.toBe(created.secret);

    const listed = await ok("webhooks", "list", "--merchant", m.merchantId, "--mode", "test");
    expect(listed.data.map((e: any) => e.id)).toEqual([all.id, created.id]);
    expect(listed.data[1]).toMatchObject({ merchant_id: m.merchantId, mode: "test", enabled: true, disabled_reason: null, previous_secret_expires_at: null });
    expect(JSON.stringify(listed)).not.toContain("whsec_");
    // Another mode and another merchant see none of them.
    expect((await ok("webhooks", "list", "--merchant", m.merchantId, "--mode", "live")).data).toEqual([]);
    expect((await ok("webhooks", "list", "--merchant", other.merchantId, "--mode", "test")).data).toEqual([]);

    const [row] = await stack().sql<{ secret: string; enabled_events: string[] }>("select secret, enabled_events from webhook_endpoints where id = $1", [
      created.id,
    ]);
    expect(row).toEqual({ secret: created.secret, enabled_events: ["payment.succeeded", "payment.failed"] });
  });

  test("unknown event types, bad URLs and unknown merchants are validation_error", { timeout: 180_000 }, async () => {
    const create = (mode: string, url: string, events?: string) =>
      refused("validation_error", "webhooks", "create", "--merchant", m.merchantId, "--mode", mode, "--url", url, ...(events ? ["--events", events] : []));
    expect(await create("test", "https://shop.example/h", "payment.succeeded,payment.exploded")).toMatch(/payment\.exploded/);
    expect(await create("test", "ftp://shop.example/h")).toMatch(/http/);
    expect(await create("test", "not a url")).toMatch(/url/);
    expect(await create("test", "https://user:pass@shop.example/h")).toMatch(/password/);
    expect(await create("test", `https://shop.example/${"a".repeat(2100)}`)).toMatch(/2048/);
    await refused("validation_error", "webhooks", "create", "--merchant", "mer_000000000000000000000000", "--mode", "test", "--url", "https://93.184.216.34/h");
    const rows = await stack().sql(
      "select id from webhook_endpoints where merchant_id = $1 and url not in ('http://127.0.0.1:9/hook', 'https://93.184.216.34/all')",
      [m.merchantId],
    );
    expect(rows).toEqual([]);
  });

  test("live mode needs https and a public destination: loopback, private and link-local hosts are refused", { timeout: 180_000 }, async () => {
    const live = (url: string) => refused("validation_error", "webhooks", "create", "--merchant", m.merchantId, "--mode", "live", "--url", url);
    expect(await live("http://93.184.216.34/hook")).toMatch(/https/);
    expect(await live("https://localhost/hook")).toMatch(/public address/);
    // The same rule for every caller (the core checks it): the rest through gRPC, one process spawn fewer each.
    for (const url of [
      "https://127.0.0.1/hook",
      "https://[::1]/hook",
      "https://10.0.0.5/hook",
      "https://192.168.1.10/hook",
      "https://172.16.3.4/hook",
      "https://169.254.169.254/latest",
      "https://[fe80::1]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://0.0.0.0/hook",
      "https://100.64.0.1/hook",
      "https://[fd00::1]/hook",
    ]) {
      const request = { merchant_id: m.merchantId, mode: Mode.MODE_LIVE, url, enabled_events: [] };
      const error = await stack()
        .core.webhooks.createEndpoint(request)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error, url).toBeInstanceOf(CoreError);
      expect((error as CoreError).code, url).toBe("validation_error");
      expect((error as CoreError).message, url).toMatch(/public address/);
    }
    // A public literal needs no DNS here; test mode takes loopback where WEBHOOK_ALLOW_LOOPBACK is on (the harness; test/webhook-destinations.test.ts).
    const created = await ok("webhooks", "create", "--merchant", m.merchantId, "--mode", "live", "--url", "https://93.184.216.34/hook");
    expect(created.id).toMatch(ENDPOINT_ID_RE);
    await ok("webhooks", "delete", created.id);
  });

  test("update changes the subscription and the enabled flag; rotate keeps the previous secret for 24 h; delete removes it", { timeout: 180_000 }, async () => {
    const created = await ok("webhooks", "create", "--merchant", m.merchantId, "--mode", "test", "--url", "http://127.0.0.1:9/rotate");
    const narrowed = await ok("webhooks", "update", created.id, "--events", "payment.canceled");
    expect(narrowed).toMatchObject({ id: created.id, enabled_events: ["payment.canceled"], enabled: true });
    await refused("validation_error", "webhooks", "update", created.id, "--events", "payment.nope");
    const disabled = await ok("webhooks", "update", created.id, "--disable");
    expect(disabled).toMatchObject({ enabled: false, enabled_events: ["payment.canceled"] });
    expect(disabled.disabled_reason).toEqual(expect.any(String));
    const enabled = await ok("webhooks", "update", created.id, "--enable", "--all-events");
    expect(enabled).toMatchObject({ enabled: true, disabled_reason: null, enabled_events: [] });

    const before = Date.now();
    const rotated = await ok("webhooks", "rotate", created.id);
    expect(Object.keys(rotated)).toEqual(["id", "secret", "previous_secret_expires_at"]);
    expect(rotated.secret).toMatch(SECRET_RE);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.previous_secret_expires_at).toMatch(CREATED_AT_RE);
    const overlap = Date.parse(rotated.previous_secret_expires_at) - before;
    expect(overlap).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);
    const [row] = await stack().sql<{ secret: string; previous_secret: string }>("select secret, previous_secret from webhook_endpoints where id = $1", [
      created.id,
    ]);
    expect(row).toEqual({ secret: rotated.secret, previous_secret: created.secret });

    expect(await ok("webhooks", "delete", created.id)).toEqual({ id: created.id, deleted: true });
    expect(await stack().sql("select id from webhook_endpoints where id = $1", [created.id])).toEqual([]);
    for (const args of [
      ["rotate", created.id],
      ["delete", created.id],
      ["update", created.id, "--enable"],
      ["rotate", "we_nope"],
    ]) {
      await refused("validation_error", "webhooks", ...args);
    }
  });

  test("gRPC and tRPC run the same operations with the same rules", async () => {
    const s = stack();
    const created = await s.core.webhooks.createEndpoint({
      merchant_id: m.merchantId,
      mode: Mode.MODE_TEST,
      url: "http://127.0.0.1:9/grpc",
      enabled_events: [],
    });
    expect(created.secret).toMatch(SECRET_RE);
    expect(
      await grpcCode(s.core.webhooks.createEndpoint({ merchant_id: m.merchantId, mode: Mode.MODE_LIVE, url: "https://127.0.0.1/x", enabled_events: [] })),
    ).toBe("validation_error");
    expect(
      await grpcCode(
        s.core.webhooks.createEndpoint({ merchant_id: m.merchantId, mode: Mode.MODE_UNSPECIFIED, url: "http://127.0.0.1:9/x", enabled_events: [] }),
      ),
    ).toBe("validation_error");

    const api = operator();
    const viaTrpc = await api.webhooks.create.mutate({
      merchant_id: m.merchantId,
      mode: "test",
      url: "http://127.0.0.1:9/trpc",
      enabled_events: ["payment.failed"],
    });
    expect(viaTrpc).toMatchObject({ id: expect.stringMatching(ENDPOINT_ID_RE), enabled_events: ["payment.failed"], secret: expect.stringMatching(SECRET_RE) });
    const listed = await api.webhooks.list.query({ merchant_id: m.merchantId, mode: "test" });
    expect(listed.data.map((e) => e.id)).toEqual(expect.arrayContaining([created.endpoint!.id, viaTrpc.id]));
    expect((await api.webhooks.update.mutate({ id: viaTrpc.id, enabled: false })).enabled).toBe(false);
    expect((await api.webhooks.rotate.mutate({ id: viaTrpc.id })).secret).toMatch(SECRET_RE);
    expect(await api.webhooks.delete.mutate({ id: viaTrpc.id })).toEqual({ id: viaTrpc.id, deleted: true });
    try {
      await api.webhooks.create.mutate({ merchant_id: m.merchantId, mode: "test", url: "http://127.0.0.1:9/x", enabled_events: ["nope"] });
      throw new Error("accepted an unknown event type");
    } catch (error) {
      expect(error).toBeInstanceOf(TRPCClientError);
      expect((error as TRPCClientError<AppRouter>).data).toMatchObject({ paytami_code: "validation_error", httpStatus: 400 });
    }
  });
});

describe("events API", () => {
  test("GET /v1/events lists exactly the merchant's events of its mode, newest first, with pagination and a type filter", async () => {
    const s = stack();
    const fresh = await s.admin.createMerchant({ name: "Eventos API" });
    const key = fresh.testApiKey;
    const expected: Array<{ type: string; data: unknown }> = [];
    for (const [step, type] of [
      ["succeed", "payment.succeeded"],
      ["fail", "payment.failed"],
      ["cancel", "payment.canceled"],
      ["succeed", "payment.succeeded"],
      ["fail", "payment.failed"],
    ] as const) {
      const id = (await createOk(s.http, key)).id;
      await s.admin.simulate(id, step);
      // The event's data is the payment as GET /v1/payments/{id} shows it at that moment.
      expected.unshift({ type, data: (await s.http.getPayment(key, id)).json });
    }
    // Later changes do not rewrite what the event said.
    const settled = (expected.find((e) => e.type === "payment.succeeded")!.data as { id: string }).id;
    await s.admin.simulate(settled, "settle");
    // Events of another merchant and of the live mode are not listed.
    await s.admin.simulate((await createOk(s.http, other.testApiKey)).id, "succeed");

    const all = await s.http.get("/v1/events", { key });
    expect(all.status, all.text).toBe(200);
    expect(Object.keys(all.json)).toEqual(["data", "has_more"]);
    expect(all.json.has_more).toBe(false);
    expect(all.json.data.map((e: any) => ({ type: e.type, data: e.data }))).toEqual(expected);
    for (const event of all.json.data) {
      expect(Object.keys(event)).toEqual(["id", "type", "created_at", "data"]);
      expect(event.id).toMatch(EVENT_ID_RE);
      expect(event.created_at).toMatch(CREATED_AT_RE);
    }
    expect((await s.http.get("/v1/events", { key: fresh.liveApiKey })).json).toEqual({ data: [], has_more: false });

    const pages: any[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await s.http.get(`/v1/events?limit=2${after ? `&starting_after=${after}` : ""}`, { key });
      expect(page.status, page.text).toBe(200);
      pages.push(page.json.data.map((e: any) => e.id));
      if (!page.json.has_more) break;
      after = page.json.data.at(-1).id;
    }
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all.json.data.map((e: any) => e.id));

    const failed = await s.http.get("/v1/events?type=payment.failed", { key });
    expect(failed.json.data.map((e: any) => e.id)).toEqual(all.json.data.filter((e: any) => e.type === "payment.failed").map((e: any) => e.id));
    expect((await s.http.get("/v1/events?type=refund.succeeded", { key })).json).toEqual({ data: [], has_more: false });

    const one = await s.http.get(`/v1/events/${all.json.data[0].id}`, { key });
    expect(one.status).toBe(200);
    expect(one.json).toEqual(all.json.data[0]);
  });

  test("another merchant's or mode's event, an unknown id and a malformed id answer 404 validation_error; bad queries 400; no key 401", async () => {
    const s = stack();
    const id = (await createOk(s.http, m.testApiKey)).id;
    await s.admin.simulate(id, "cancel");
    const mine = (await s.http.get("/v1/events?type=payment.canceled&limit=1", { key: m.testApiKey })).json.data[0];
    expect(mine.data.id).toBe(id);
    expectError(await s.http.get(`/v1/events/${mine.id}`, { key: other.testApiKey }), 404, "validation_error");
    expectError(await s.http.get(`/v1/events/${mine.id}`, { key: m.liveApiKey }), 404, "validation_error");
    expectError(await s.http.get("/v1/events/evt_000000000000000000000000", { key: m.testApiKey }), 404, "validation_error");
    expectError(await s.http.get("/v1/events/nope", { key: m.testApiKey }), 404, "validation_error");
    expectError(await s.http.get(`/v1/events/${mine.id}`), 401, "unauthorized");
    expectError(await s.http.get("/v1/events"), 401, "unauthorized");
    expectError(await s.http.get("/v1/events?type=bogus"), 401, "unauthorized");
    for (const query of ["type=bogus", "limit=0", "limit=101", "limit=abc", "colour=red", "type=a&type=b", `starting_after=${mine.id}x`]) {
      expectError(await s.http.get(`/v1/events?${query}`, { key: m.testApiKey }), 400, "validation_error");
    }
    expectError(await s.http.get(`/v1/events?starting_after=${mine.id}`, { key: other.testApiKey }), 400, "validation_error");
  });
});

describe("paytami trigger", () => {
  test(
    "payment events: a fixture payment through the real transitions; prints {event_id, type}; the event is in GET /v1/events",
    { timeout: 180_000 },
    async () => {
      const s = stack();
      for (const [type, status] of [
        ["payment.succeeded", "captured"],
        ["payment.failed", "failed"],
        ["payment.canceled", "canceled"],
      ] as const) {
        const fired = await ok("trigger", type, "--merchant", m.merchantId);
        expect(Object.keys(fired)).toEqual(["event_id", "type"]);
        expect(fired).toEqual({ event_id: expect.stringMatching(EVENT_ID_RE), type });
        const event = await s.http.get(`/v1/events/${fired.event_id}`, { key: m.testApiKey });
        expect(event.status, event.text).toBe(200);
        expect(event.json).toMatchObject({ id: fired.event_id, type, data: { status } });
        expect(event.json.data).toEqual((await s.http.getPayment(m.testApiKey, event.json.data.id)).json);
      }
    },
  );

  // Every other type of the catalog: test/trigger-every-event.test.ts.
  test("unknown types, live mode and unknown merchants are refused clearly", { timeout: 180_000 }, async () => {
    await refused("validation_error", "trigger", "payment.exploded", "--merchant", m.merchantId);
    expect(await refused("validation_error", "trigger", "payment.succeeded", "--merchant", m.merchantId, "--mode", "live")).toMatch(/test mode/);
    await refused("validation_error", "trigger", "payment.succeeded", "--merchant", "mer_000000000000000000000000");
  });
});
