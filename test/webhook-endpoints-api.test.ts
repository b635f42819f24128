// /v1/webhook_endpoints against a real stack (core, facade, dispatcher): every rule and error with
// its exact status and body, isolation by merchant and by mode, the secret only in the create and
// rotate answers, and a test event sent through the API reaching a real receiver, that endpoint
// only, signed so Stripe's own library verifies it with the old and the new secret after a rotation.
import Stripe from "stripe";
import { beforeAll, describe, expect, test } from "vitest";
import { expectError, useStack } from "./support/expect.ts";
import { newIdemKey, type Res } from "./support/http.ts";
import type { Merchant } from "./support/stack.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

const stack = useStack({
  dispatcher: true,
  env: { PAYOUT_SCHEDULE: "off", OUTBOX_RELAY_INTERVAL: "50ms", DISPATCHER_POLL_INTERVAL: "100ms", WEBHOOK_RETRY_SCHEDULE: "0,200ms" },
});

const ENDPOINT_KEYS = ["id", "url", "enabled_events", "enabled", "disabled_reason", "previous_secret_expires_at", "created_at", "updated_at"];
const SECRET_RE = /^whsec_[A-Za-z0-9_-]{43}$/;
const ID_RE = /^we_[0-9a-f]{24}$/;
const URL = "http://127.0.0.1:9/hooks";
const stripe = new Stripe("sk_test_x");

let m: Merchant;
let other: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Endpoints" });
  other = await stack().admin.createMerchant({ name: "Otra Tienda Endpoints" });
});

const create = (key: string, body: unknown, idem: string | undefined = newIdemKey()) => stack().http.post("/v1/webhook_endpoints", { key, body, idem });
const get = (key: string, id: string) => stack().http.get(`/v1/webhook_endpoints/${id}`, { key });
const update = (key: string, id: string, body: unknown) => stack().http.post(`/v1/webhook_endpoints/${id}`, { key, body });
const remove = (key: string, id: string) => stack().http.request("DELETE", `/v1/webhook_endpoints/${id}`, { key });
const rotate = (key: string, id: string) => stack().http.post(`/v1/webhook_endpoints/${id}/rotate_secret`, { key });
const list = (key: string, query = "") => stack().http.get(`/v1/webhook_endpoints${query}`, { key });

async function created(key: string, body: Record<string, unknown> = { url: URL }): Promise<any> {
  const res = await create(key, body);
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** A refusal: exact status, catalog code and {error:{code,message}} body, with the message given. */
function refused(res: Res, status: number, code: string, message?: RegExp): void {
  expectError(res, status, code);
  if (message) expect(res.json.error.message).toMatch(message);
}

describe("POST /v1/webhook_endpoints", () => {
  test("201 with the endpoint and its secret; the same key and body replays it, a different body is 409", async () => {
    const idem = newIdemKey();
    const body = { url: URL, enabled_events: ["payment.succeeded", "refund.succeeded"] };
    const first = await create(m.testApiKey, body, idem);
    expect(first.status, first.text).toBe(201);
    expect(Object.keys(first.json)).toEqual([...ENDPOINT_KEYS, "secret"]);
    expect(first.json).toMatchObject({
      id: expect.stringMatching(ID_RE),
      url: URL,
      enabled_events: ["payment.succeeded", "refund.succeeded"],
      enabled: true,
      disabled_reason: null,
      previous_secret_expires_at: null,
      secret: expect.stringMatching(SECRET_RE),
    });
    expect(first.header("idempotent-replayed")).toBeUndefined();

    const again = await create(m.testApiKey, body, idem);
    expect(again.status).toBe(201);
    expect(again.header("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    const all = await list(m.testApiKey, "?limit=100");
    expect(all.json.data.filter((e: any) => e.id === first.json.id)).toHaveLength(1);

    refused(await create(m.testApiKey, { url: URL }, idem), 409, "idempotency_key_reused");
    // Empty or absent enabled_events: every type.
    expect((await created(m.testApiKey, { url: URL, enabled_events: [] })).enabled_events).toEqual([]);
    expect((await created(m.testApiKey, { url: URL })).enabled_events).toEqual([]);
  });

  test("every refusal, with its exact status and body, creates nothing", async () => {
    const before = (await stack().sql("select count(*)::int as n from webhook_endpoints"))[0]!.n;
    refused(await stack().http.post("/v1/webhook_endpoints", { key: m.testApiKey, body: { url: URL } }), 400, "idempotency_key_required");
    refused(await create("sk_test_nope", { url: URL }), 401, "unauthorized");
    refused(await stack().http.post("/v1/webhook_endpoints", { body: { url: URL }, idem: newIdemKey() }), 401, "unauthorized");
    refused(await create(m.testApiKey, {}), 400, "validation_error", /^url is required/);
    refused(await create(m.testApiKey, { url: "not a url" }), 400, "validation_error", /url must be an absolute http or https URL/);
    refused(await create(m.testApiKey, { url: "ftp://127.0.0.1/hooks" }), 400, "validation_error", /http or https/);
    refused(await create(m.testApiKey, { url: "http://user:pw@127.0.0.1/hooks" }), 400, "validation_error", /user name or password/);
    refused(await create(m.testApiKey, { url: 42 }), 400, "validation_error", /^url must be a string/);
    refused(await create(m.testApiKey, { url: URL, enabled_events: ["payment.nope"] }), 400, "validation_error", /Unknown event type "payment\.nope"/);
    refused(await create(m.testApiKey, { url: URL, enabled_events: "payment.succeeded" }), 400, "validation_error", /^enabled_events must be an array/);
    refused(await create(m.testApiKey, { url: URL, secret: "whsec_mine" }), 400, "validation_error", /^Unknown field secret/);
    refused(await create(m.testApiKey, [1, 2]), 400, "validation_error", /^The body must be a JSON object/);
    // Live mode: https only, and never loopback.
    refused(await create(m.liveApiKey, { url: URL }), 400, "validation_error", /https URL in live mode/);
    refused(await create(m.liveApiKey, { url: "https://127.0.0.1/hooks" }), 400, "validation_error", /public address in live mode/);
    expect((await stack().sql("select count(*)::int as n from webhook_endpoints"))[0]!.n).toBe(before);
  });
});

describe("reading, changing and deleting", () => {
  test("list and get never show the secret; lists page newest first", async () => {
    const own = await created(other.testApiKey);
    const newer = await created(other.testApiKey);
    const page = await list(other.testApiKey, "?limit=1");
    expect(page.status).toBe(200);
    expect(page.json).toEqual({ data: [expect.objectContaining({ id: newer.id })], has_more: true });
    const next = await list(other.testApiKey, `?limit=1&starting_after=${newer.id}`);
    expect(next.json.data.map((e: any) => e.id)).toEqual([own.id]);
    for (const e of [...page.json.data, ...next.json.data]) expect(Object.keys(e)).toEqual(ENDPOINT_KEYS);
    const one = await get(other.testApiKey, own.id);
    expect(one.status).toBe(200);
    expect(Object.keys(one.json)).toEqual(ENDPOINT_KEYS);
    expect(one.text).not.toContain(own.secret);
    expect(page.text + next.text).not.toContain("whsec_");
    refused(await list(other.testApiKey, "?limit=0"), 400, "validation_error");
    refused(await list(other.testApiKey, "?color=red"), 400, "validation_error", /^Unknown query parameter color/);
    refused(await list(other.testApiKey, `?starting_after=we_${"0".repeat(24)}`), 400, "validation_error");
  });

  test("isolation: another merchant's or the other mode's endpoint is not found and is left alone", async () => {
    const mine = await created(m.testApiKey);
    for (const key of [other.testApiKey, m.liveApiKey]) {
      refused(await get(key, mine.id), 404, "validation_error", /No such webhook endpoint/);
      refused(await update(key, mine.id, { enabled: false }), 404, "validation_error");
      refused(await rotate(key, mine.id), 404, "validation_error");
      refused(await remove(key, mine.id), 404, "validation_error");
      refused(await stack().http.post(`/v1/webhook_endpoints/${mine.id}/test_event`, { key, body: { type: "payment.succeeded" } }), 404, "validation_error");
      expect((await list(key, "?limit=100")).json.data.map((e: any) => e.id)).not.toContain(mine.id);
    }
    const still = await get(m.testApiKey, mine.id);
    expect(still.json).toMatchObject({ enabled: true, previous_secret_expires_at: null });
    refused(await get(m.testApiKey, "we_nope"), 404, "validation_error");
    refused(await get(m.testApiKey, `we_${"0".repeat(24)}`), 404, "validation_error");
  });

  test("update: enabled, enabled_events and url, each checked; disabling says why, enabling clears it", async () => {
    const e = await created(m.testApiKey);
    const off = await update(m.testApiKey, e.id, { enabled: false });
    expect(off.status, off.text).toBe(200);
    expect(off.json).toMatchObject({ id: e.id, enabled: false, disabled_reason: "disabled by the merchant" });
    const on = await update(m.testApiKey, e.id, { enabled: true, enabled_events: ["payout.failed"], url: "http://127.0.0.1:10/other" });
    expect(on.json).toMatchObject({ enabled: true, disabled_reason: null, enabled_events: ["payout.failed"], url: "http://127.0.0.1:10/other" });
    expect(Object.keys(on.json)).toEqual(ENDPOINT_KEYS);
    refused(await update(m.testApiKey, e.id, { enabled: "no" }), 400, "validation_error", /^enabled must be true or false/);
    refused(await update(m.testApiKey, e.id, { enabled_events: ["payment.nope"] }), 400, "validation_error", /Unknown event type/);
    refused(await update(m.testApiKey, e.id, { url: "http://user:pw@127.0.0.1/x" }), 400, "validation_error", /user name or password/);
    refused(await update(m.testApiKey, e.id, { secret: "x" }), 400, "validation_error", /^Unknown field secret/);
    refused(await update(m.testApiKey, e.id, {}), 400, "validation_error", /Nothing to update/);
    refused(await update("sk_test_nope", e.id, { enabled: false }), 401, "unauthorized");
    expect((await get(m.testApiKey, e.id)).json).toMatchObject({ enabled: true, enabled_events: ["payout.failed"], url: "http://127.0.0.1:10/other" });
  });

  test("delete: 200 {id, deleted}; then every call on it is not found", async () => {
    const e = await created(m.testApiKey);
    const gone = await remove(m.testApiKey, e.id);
    expect(gone.status).toBe(200);
    expect(gone.json).toEqual({ id: e.id, deleted: true });
    refused(await get(m.testApiKey, e.id), 404, "validation_error");
    refused(await remove(m.testApiKey, e.id), 404, "validation_error");
    refused(await rotate(m.testApiKey, e.id), 404, "validation_error");
    refused(await update(m.testApiKey, e.id, { enabled: true }), 404, "validation_error");
    expect((await list(m.testApiKey, "?limit=100")).json.data.map((x: any) => x.id)).not.toContain(e.id);
  });
});

describe("rotation and a test event", () => {
  test("rotate shows the new secret once; a test event reaches that endpoint only, signed by both secrets (Stripe's library verifies each)", async () => {
    const target = await new WebhookReceiver().start();
    const bystander = await new WebhookReceiver().start();
    try {
      // The target subscribes to another type: a test event goes to it whatever it subscribes to.
      const e = await created(m.testApiKey, { url: target.url, enabled_events: ["payment.failed"] });
      await created(m.testApiKey, { url: bystander.url });
      const rotated = await rotate(m.testApiKey, e.id);
      expect(rotated.status, rotated.text).toBe(200);
      expect(Object.keys(rotated.json)).toEqual([...ENDPOINT_KEYS, "secret"]);
      expect(rotated.json.secret).toMatch(SECRET_RE);
      expect(rotated.json.secret).not.toBe(e.secret);
      const overlap = Date.parse(rotated.json.previous_secret_expires_at) - Date.now();
      expect(overlap).toBeGreaterThan(23.9 * 3_600_000);
      expect(overlap).toBeLessThanOrEqual(24 * 3_600_000);
      const shown = await get(m.testApiKey, e.id);
      expect(shown.text).not.toContain(rotated.json.secret);
      expect(shown.json.previous_secret_expires_at).toBe(rotated.json.previous_secret_expires_at);

      const sent = await stack().http.post(`/v1/webhook_endpoints/${e.id}/test_event`, { key: m.testApiKey, body: { type: "payment.succeeded" } });
      expect(sent.status, sent.text).toBe(200);
      expect(sent.json).toEqual({ event_id: expect.stringMatching(/^evt_[0-9a-f]{24}$/), type: "payment.succeeded", endpoint_id: e.id });
      await target.waitFor((requests) => requests.some((r) => r.eventId === sent.json.event_id), 30_000, "the test event");
      const request = target.requests.find((r) => r.eventId === sent.json.event_id)!;
      const header = String(request.headers["service-signature"]);
      expect(header.match(/v1=/g)).toHaveLength(2);
      for (const secret of [rotated.json.secret, e.secret]) {
        const event = stripe.webhooks.constructEvent(request.body, header, secret) as unknown as Record<string, any>;
        expect(event).toMatchObject({ id: sent.json.event_id, type: "payment.succeeded", livemode: false, test_event: true });
        expect(event.data).toMatchObject({ id: `pay_${"0".repeat(24)}`, status: "captured" });
      }
      expect(() => stripe.webhooks.constructEvent(request.body, header, "whsec_" + "A".repeat(43))).toThrow();
      expect(request.headers["service-event-id"]).toBe(sent.json.event_id);

      // Only that endpoint: the bystander (subscribed to every type) got nothing, and it is not an account event.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(bystander.requests.map((r) => r.eventId)).not.toContain(sent.json.event_id);
      const events = await stack().http.get("/v1/events?limit=100", { key: m.testApiKey });
      expect(events.json.data.map((ev: any) => ev.id)).not.toContain(sent.json.event_id);
      refused(await stack().http.get(`/v1/events/${sent.json.event_id}`, { key: m.testApiKey }), 404, "validation_error");

      refused(
        await stack().http.post(`/v1/webhook_endpoints/${e.id}/test_event`, { key: m.testApiKey, body: { type: "payment.nope" } }),
        400,
        "validation_error",
        /Unknown event type/,
      );
    } finally {
      await target.stop();
      await bystander.stop();
    }
  });
});
