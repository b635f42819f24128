// An endpoint's delivery log for its merchant, through the declared operations (runOperation: who
// may, the input's shape, the unit of work) against a real PostgreSQL with a test clock: pages and
// filters with every attempt; replay one and replay failed since a time (bounded), each picked up by
// the dispatchers' claim; a test event recorded for its one endpoint only. The test event's trip to
// a real receiver, signed, is test/webhook-endpoints-api.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { claimDueDeliveries } from "../jobs/claim-due-deliveries.ts";
import { endpointDeliveries } from "../operations/endpoint-deliveries.ts";
import { merchantCaller, OPERATOR, type MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { listEvents } from "./events.ts";
import { createMerchant } from "./merchants.ts";
import { runOperation } from "./operation.ts";
import { enqueueEvents } from "./outbox.ts";
import { inTransaction } from "./unit-of-work.ts";
import { recordAttempts, recordDeliveries } from "./webhook-deliveries.ts";
import { createEndpoint, updateEndpoint } from "./webhook-endpoints.ts";

let database: MigratedDatabase | undefined;
let clock = new Date("2026-11-21T12:00:00.000Z");
let deps: CoreDeps;
let owner: MerchantCaller;
let stranger: MerchantCaller;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 4, now: () => clock });
  // One attempt then failed, so a failed delivery takes one recorded outcome; at most 2 replayed per call.
  deps = {
    ...database.deps,
    config: { ...database.deps.config, webhookRetryScheduleMs: [0], webhooks: { ...database.deps.config.webhooks, replayFailedMax: 2 } },
  };
  const merchant = async (name: string) =>
    (await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name, currencies: [], methods: [] }))).merchantId;
  owner = merchantCaller(await merchant("Dueño S.A."), "test");
  stranger = merchantCaller(await merchant("Ajeno S.A."), "test");
});
afterAll(() => database?.close());

const tick = () => (clock = new Date(clock.getTime() + 1_000));

async function newEndpoint(caller: MerchantCaller, events: string[] = []): Promise<string> {
  const created = await createEndpoint(deps, deps.orm.em.fork(), caller, { url: "http://127.0.0.1:9/hooks", enabledEvents: events });
  return created.endpoint.id;
}

/** An event of `caller`'s, recorded for every endpoint subscribed to it (what a dispatcher does when it takes it from JetStream). */
async function deliveredEvent(caller: MerchantCaller, type = "payment.succeeded"): Promise<string> {
  tick();
  const [envelope] = await inTransaction(deps, async (tx) => ({
    value: await enqueueEvents(tx, [{ merchantId: caller.merchantId, mode: caller.mode, type, data: { id: "pay_x" }, at: clock }]),
    events: [],
  }));
  await inTransaction(deps, (tx) => recordDeliveries(deps, tx, OPERATOR, [envelope!.id]));
  return envelope!.id;
}

async function deliveryOf(endpointId: string, eventId: string): Promise<string> {
  const row = await db(deps.orm.em.fork())
    .selectFrom("webhook_deliveries")
    .select("id")
    .where("endpoint_id", "=", endpointId)
    .where("event_id", "=", eventId)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function attempt(deliveryId: string, httpStatus: number | undefined): Promise<void> {
  tick();
  await inTransaction(deps, (tx) =>
    recordAttempts(deps, tx, OPERATOR, [
      {
        deliveryId,
        attemptedAt: clock,
        httpStatus,
        error: httpStatus === undefined ? "ECONNREFUSED" : undefined,
        latencyMs: 42,
        responseExcerpt: httpStatus === undefined ? "" : `answer ${httpStatus}`,
      },
    ]),
  );
}

const list = (caller: MerchantCaller, input: Parameters<typeof endpointDeliveries.list.run>[3]) => runOperation(deps, endpointDeliveries.list, caller, input);
const claimIds = async () => (await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 50, leaseMs: 30_000 })).map((d) => d.deliveryId);

describe("an endpoint's delivery log", () => {
  test("newest first in keyset pages, each delivery with every attempt; filters failed and event type", async () => {
    const endpoint = await newEndpoint(owner);
    const first = await deliveryOf(endpoint, await deliveredEvent(owner));
    const second = await deliveryOf(endpoint, await deliveredEvent(owner, "refund.succeeded"));
    const third = await deliveryOf(endpoint, await deliveredEvent(owner));
    await attempt(first, undefined);
    await attempt(second, 200);
    await claimIds(); // takes whatever is due; outcomes above are already recorded

    const page1 = await list(owner, { endpointId: endpoint, limit: 2 });
    expect(page1.data.map((d) => d.id)).toEqual([third, second]);
    expect(page1.has_more).toBe(true);
    const page2 = await list(owner, { endpointId: endpoint, limit: 2, starting_after: second });
    expect(page2).toMatchObject({ data: [{ id: first }], has_more: false });
    expect(page2.data[0]).toMatchObject({ status: "failed", attempt_count: 1, last_error: "ECONNREFUSED", endpoint_id: endpoint });
    expect(page2.data[0]!.attempts).toEqual([
      { attempted_at: expect.any(String), http_status: null, error: "ECONNREFUSED", latency_ms: 42, response_excerpt: "" },
    ]);
    expect(page1.data[1]!.attempts).toEqual([
      { attempted_at: expect.any(String), http_status: 200, error: null, latency_ms: 42, response_excerpt: "answer 200" },
    ]);
    expect(page1.data[0]!.attempts).toEqual([]);

    expect((await list(owner, { endpointId: endpoint, failed: true })).data.map((d) => d.id)).toEqual([first]);
    expect((await list(owner, { endpointId: endpoint, eventType: "refund.succeeded" })).data.map((d) => d.id)).toEqual([second]);
    await expect(list(owner, { endpointId: endpoint, eventType: "payment.nope" })).rejects.toMatchObject({ code: "validation_error" });
    await expect(list(owner, { endpointId: endpoint, limit: 101 })).rejects.toMatchObject({ code: "validation_error" });
    // Another endpoint's delivery is no cursor of this one.
    const other = await newEndpoint(owner);
    await expect(list(owner, { endpointId: other, starting_after: first })).rejects.toMatchObject({ code: "validation_error" });
  });

  test("another merchant's or mode's endpoint, and a viewer's session, are refused and see nothing", async () => {
    const endpoint = await newEndpoint(owner);
    const delivery = await deliveryOf(endpoint, await deliveredEvent(owner));
    const live = merchantCaller(owner.merchantId, "live");
    for (const caller of [stranger, live]) {
      await expect(list(caller, { endpointId: endpoint })).rejects.toMatchObject({
        code: "validation_error",
        message: `No such webhook endpoint: ${endpoint}.`,
      });
      await expect(runOperation(deps, endpointDeliveries.replay, caller, { endpointId: endpoint, deliveryId: delivery })).rejects.toMatchObject({
        code: "validation_error",
      });
      await expect(runOperation(deps, endpointDeliveries.sendTestEvent, caller, { endpointId: endpoint, type: "payment.succeeded" })).rejects.toMatchObject({
        code: "validation_error",
      });
    }
    const viewer: MerchantCaller = { ...owner, via: "session", role: "viewer", session: { userId: "usr_x", sessionId: "ses_x", clientIp: undefined } };
    await expect(list(viewer, { endpointId: endpoint })).rejects.toMatchObject({ code: "unauthorized" });
    // A delivery of another endpoint of the same merchant is not found through this one.
    const other = await newEndpoint(owner);
    await expect(runOperation(deps, endpointDeliveries.replay, owner, { endpointId: other, deliveryId: delivery })).rejects.toMatchObject({
      code: "validation_error",
      message: `No such delivery: ${delivery}.`,
    });
  });

  test("replay one: a failed delivery is due now with a fresh schedule, and the claim takes it; its attempts stay", async () => {
    const endpoint = await newEndpoint(owner);
    const delivery = await deliveryOf(endpoint, await deliveredEvent(owner));
    expect(await claimIds()).toContain(delivery);
    await attempt(delivery, 500);
    expect(await claimIds()).not.toContain(delivery);
    tick();
    const replayed = await runOperation(deps, endpointDeliveries.replay, owner, { endpointId: endpoint, deliveryId: delivery });
    expect(replayed).toMatchObject({ id: delivery, status: "pending", next_attempt_at: clock.toISOString(), attempt_count: 1 });
    expect(await claimIds()).toEqual([delivery]);
    expect((await list(owner, { endpointId: endpoint })).data[0]!.attempts).toHaveLength(1);
  });

  test("replay failed since: only failed ones created since then, at most WEBHOOK_REPLAY_FAILED_MAX per call, saying whether more remain", async () => {
    const endpoint = await newEndpoint(owner);
    const old = await deliveryOf(endpoint, await deliveredEvent(owner));
    const since = new Date(clock.getTime() + 1).toISOString();
    const failed = [];
    for (let i = 0; i < 3; i++) failed.push(await deliveryOf(endpoint, await deliveredEvent(owner)));
    const succeeded = await deliveryOf(endpoint, await deliveredEvent(owner));
    await claimIds();
    for (const id of [old, ...failed]) await attempt(id, 503);
    await attempt(succeeded, 204);

    const replay = () => runOperation(deps, endpointDeliveries.replayFailedSince, owner, { endpointId: endpoint, since });
    expect(await replay()).toEqual({ replayed: 2, has_more: true });
    expect(await replay()).toEqual({ replayed: 1, has_more: false });
    expect(await replay()).toEqual({ replayed: 0, has_more: false });
    expect((await claimIds()).sort()).toEqual([...failed].sort());
    const statuses = await list(owner, { endpointId: endpoint, failed: true });
    expect(statuses.data.map((d) => d.id)).toEqual([old]);
    await expect(runOperation(deps, endpointDeliveries.replayFailedSince, owner, { endpointId: endpoint, since: "yesterday" })).rejects.toMatchObject({
      code: "validation_error",
    });
  });

  test("a test event: one outbox row for that endpoint only (whatever it subscribes to), marked, not among the account's events", async () => {
    const target = await newEndpoint(owner, ["payment.failed"]);
    const bystander = await newEndpoint(owner);
    const sent = await runOperation(deps, endpointDeliveries.sendTestEvent, owner, { endpointId: target, type: "payout.failed" });
    expect(sent).toEqual({ event_id: expect.stringMatching(/^evt_[0-9a-f]{24}$/), type: "payout.failed", endpoint_id: target });
    const row = await db(deps.orm.em.fork())
      .selectFrom("outbox_events")
      .select(["envelope", "endpoint_id"])
      .where("id", "=", sent.event_id)
      .executeTakeFirstOrThrow();
    expect(row.endpoint_id).toBe(target);
    expect(row.envelope).toMatchObject({
      id: sent.event_id,
      type: "payout.failed",
      livemode: false,
      test_event: true,
      data: { id: "payout_000000000000000000000000", status: "failed", failure_reason: expect.any(String), completed_at: null },
    });
    expect(Object.keys(row.envelope)).toEqual(["id", "type", "created_at", "data", "livemode", "test_event"]);

    expect(await inTransaction(deps, (tx) => recordDeliveries(deps, tx, OPERATOR, [sent.event_id]))).toEqual({ created: 1, unknownEventIds: [] });
    const deliveries = await db(deps.orm.em.fork()).selectFrom("webhook_deliveries").select("endpoint_id").where("event_id", "=", sent.event_id).execute();
    expect(deliveries).toEqual([{ endpoint_id: target }]);
    expect((await list(owner, { endpointId: bystander })).data.map((d) => d.event_id)).not.toContain(sent.event_id);
    expect((await list(owner, { endpointId: target })).data[0]).toMatchObject({ event_id: sent.event_id, event_type: "payout.failed", status: "pending" });

    const events = await listEvents(deps, deps.orm.em.fork(), owner, { limit: 100 });
    expect(events.data.map((e) => e.id)).not.toContain(sent.event_id);

    await expect(runOperation(deps, endpointDeliveries.sendTestEvent, owner, { endpointId: target, type: "payment.nope" })).rejects.toMatchObject({
      code: "validation_error",
    });
    await inTransaction(deps, (tx) => updateEndpoint(deps, tx, owner, { id: target, enabled: false }));
    await expect(runOperation(deps, endpointDeliveries.sendTestEvent, owner, { endpointId: target, type: "payment.succeeded" })).rejects.toMatchObject({
      code: "validation_error",
      message: expect.stringContaining("disabled"),
    });
  });
});
