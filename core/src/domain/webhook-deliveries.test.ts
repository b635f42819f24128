// The delivery model's domain operations against a real PostgreSQL with a test clock: recording is
// idempotent per (event, endpoint); the claim leases due rows with a per-endpoint bound; outcomes
// follow the retry schedule; an endpoint that has only failed for WEBHOOK_DISABLE_AFTER is disabled.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { merchantCaller, OPERATOR } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { createMerchant } from "./merchants.ts";
import { enqueueEvents } from "./outbox.ts";
import { inTransaction } from "./unit-of-work.ts";
import { claimDueDeliveries } from "../jobs/claim-due-deliveries.ts";
import { recordAttempts, recordDeliveries, releaseDeliveries } from "./webhook-deliveries.ts";
import { getDelivery } from "./webhook-delivery-log.ts";
import { createEndpoint } from "./webhook-endpoints.ts";

let database: MigratedDatabase | undefined;
let clock = new Date("2026-11-21T12:00:00.000Z");
let deps: CoreDeps;
let merchantId: string;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 4, now: () => clock });
  deps = {
    ...database.deps,
    config: {
      ...database.deps.config,
      webhookRetryScheduleMs: [0, 1_000, 60_000],
      webhooks: { ...database.deps.config.webhooks, endpointConcurrency: 2, disableAfterMs: 5 * 86_400_000 },
    },
  };
  merchantId = (await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Dominio S.A.", currencies: [], methods: [] }))).merchantId;
});
afterAll(() => database?.close());

async function newEndpoint(events: string[] = []): Promise<string> {
  const created = await createEndpoint(deps, deps.orm.em.fork(), merchantCaller(merchantId, "test"), {
    url: "http://127.0.0.1:9/hooks",
    enabledEvents: events,
  });
  return created.endpoint.id;
}

async function newEvents(n: number, type = "payment.succeeded"): Promise<string[]> {
  clock = new Date(clock.getTime() + 1);
  const envelopes = await inTransaction(deps, async (tx) => ({
    value: await enqueueEvents(
      tx,
      Array.from({ length: n }, () => ({ merchantId, mode: "test", type, data: { id: "pay_x" }, at: clock })),
    ),
    events: [],
  }));
  return envelopes.map((e) => e.id);
}

const record = (ids: string[]) => inTransaction(deps, (tx) => recordDeliveries(deps, tx, OPERATOR, ids));
const outcome = (deliveryId: string, httpStatus: number | undefined) => ({
  deliveryId,
  attemptedAt: clock,
  httpStatus,
  error: httpStatus === undefined ? "ECONNREFUSED" : undefined,
  latencyMs: 3,
  responseExcerpt: "",
});

describe("webhook deliveries", () => {
  test("recording is idempotent per (event, endpoint) and honours subscriptions; unknown events are reported", async () => {
    const all = await newEndpoint();
    const failedOnly = await newEndpoint(["payment.failed"]);
    const [succeeded] = await newEvents(1);
    const [failed] = await newEvents(1, "payment.failed");
    expect(await record([succeeded!, failed!, "evt_000000000000000000000000"])).toEqual({ created: 3, unknownEventIds: ["evt_000000000000000000000000"] });
    expect(await record([succeeded!, failed!])).toEqual({ created: 0, unknownEventIds: [] });
    const rows = await db(deps.orm.em.fork())
      .selectFrom("webhook_deliveries")
      .select(["event_id", "endpoint_id"])
      .where("endpoint_id", "in", [all, failedOnly])
      .execute();
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r.endpoint_id === failedOnly).map((r) => r.event_id)).toEqual([failed]);
    // Leave nothing due for the next tests.
    await db(deps.orm.em.fork()).deleteFrom("webhook_endpoints").where("id", "in", [all, failedOnly]).execute();
  });

  test("a claim takes at most the per-endpoint bound from each endpoint, counting what is leased already", async () => {
    const slow = await newEndpoint();
    const events = await newEvents(5);
    await record(events);
    const first = await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 });
    expect(first).toHaveLength(2);
    expect(first.every((d) => d.endpointId === slow && d.attempt === 1)).toBe(true);
    // The body is the event as stored: the envelope of the claimed delivery's own event.
    const stored = await db(deps.orm.em.fork()).selectFrom("outbox_events").select("envelope").where("id", "=", first[0]!.eventId).executeTakeFirstOrThrow();
    expect(JSON.parse(first[0]!.body.toString())).toEqual(stored.envelope);
    expect(JSON.parse(first[0]!.body.toString()).id).toBe(first[0]!.eventId);
    expect(await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 })).toHaveLength(0);
    // Another endpoint is not held up by the first one's backlog.
    const other = await newEndpoint();
    const [otherEvent] = await newEvents(1);
    await record([otherEvent!]);
    const second = await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 });
    expect(second.map((d) => d.endpointId)).toEqual([other]);
    // A released delivery frees its slot; an expired lease does too.
    await inTransaction(deps, (tx) => releaseDeliveries(deps, tx, OPERATOR, [first[0]!.deliveryId]));
    const freed = await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 });
    expect(freed.map((d) => d.endpointId)).toEqual([slow]);
    clock = new Date(clock.getTime() + 31_000);
    expect((await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 })).filter((d) => d.endpointId === slow)).toHaveLength(2);
    await db(deps.orm.em.fork()).deleteFrom("webhook_endpoints").where("id", "in", [slow, other]).execute();
  });

  test("one claim of an event's deliveries to several endpoints gives each the stored envelope, the same bytes; a purged event's deliveries fail", async () => {
    const endpoints = [await newEndpoint(), await newEndpoint(), await newEndpoint()];
    const [kept, purged] = await newEvents(2);
    await record([kept!, purged!]);
    await db(deps.orm.em.fork()).deleteFrom("outbox_events").where("id", "=", purged!).execute();
    const claimed = await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 });
    expect(claimed.map((d) => d.endpointId).sort()).toEqual([...endpoints].sort());
    expect(claimed.every((d) => d.eventId === kept)).toBe(true);
    const stored = await db(deps.orm.em.fork()).selectFrom("outbox_events").select("envelope").where("id", "=", kept!).executeTakeFirstOrThrow();
    for (const delivery of claimed) {
      expect(JSON.parse(delivery.body.toString())).toEqual(stored.envelope);
      expect(delivery.body.equals(claimed[0]!.body)).toBe(true);
    }
    const gone = await db(deps.orm.em.fork()).selectFrom("webhook_deliveries").select(["status", "last_error"]).where("event_id", "=", purged!).execute();
    expect(gone).toEqual(endpoints.map(() => ({ status: "failed", last_error: "The event is no longer kept (EVENT_RETENTION)." })));
    await db(deps.orm.em.fork()).deleteFrom("webhook_endpoints").where("id", "in", endpoints).execute();
  });

  test("failures follow the schedule, the last one fails the delivery, and a success ends it", async () => {
    const ep = await newEndpoint();
    const [eventId] = await newEvents(1);
    await record([eventId!]);
    const [d] = await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 });
    await inTransaction(deps, (tx) => recordAttempts(deps, tx, OPERATOR, [outcome(d!.deliveryId, 500)]));
    const row = () => db(deps.orm.em.fork()).selectFrom("webhook_deliveries").selectAll().where("id", "=", d!.deliveryId).executeTakeFirstOrThrow();
    let r = await row();
    expect(r.status).toBe("pending");
    expect(r.claimed_until).toBeNull();
    // 1 s ± 20 %.
    expect(r.next_attempt_at!.getTime() - clock.getTime()).toBeGreaterThanOrEqual(800);
    expect(r.next_attempt_at!.getTime() - clock.getTime()).toBeLessThanOrEqual(1_200);
    expect(await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 })).toHaveLength(0);
    clock = new Date(clock.getTime() + 1_200);
    const [again] = await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 });
    expect(again!.attempt).toBe(2);
    await inTransaction(deps, (tx) => recordAttempts(deps, tx, OPERATOR, [outcome(d!.deliveryId, undefined)]));
    clock = new Date(clock.getTime() + 72_000);
    await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 });
    await inTransaction(deps, (tx) => recordAttempts(deps, tx, OPERATOR, [outcome(d!.deliveryId, 302)]));
    r = await row();
    expect([r.status, r.attempt_count, r.next_attempt_at, r.last_http_status]).toEqual(["failed", 3, null, 302]);
    // A late duplicate outcome is recorded as an attempt but does not reopen the delivery.
    await inTransaction(deps, (tx) => recordAttempts(deps, tx, OPERATOR, [outcome(d!.deliveryId, 200)]));
    r = await row();
    expect([r.status, r.attempt_count]).toEqual(["failed", 4]);
    await db(deps.orm.em.fork()).deleteFrom("webhook_endpoints").where("id", "=", ep).execute();
  });

  test("an endpoint that has only failed for 5 days is disabled; one that succeeded meanwhile is not", async () => {
    const dead = await newEndpoint();
    const flaky = await newEndpoint();
    const endpoint = (id: string) =>
      db(deps.orm.em.fork()).selectFrom("webhook_endpoints").select(["enabled", "disabled_reason"]).where("id", "=", id).executeTakeFirstOrThrow();
    const start = clock.getTime();
    for (let day = 0; day <= 6; day++) {
      clock = new Date(start + day * 86_400_000);
      const [eventId] = await newEvents(1);
      await record([eventId!]);
      const claimed = await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 });
      await inTransaction(deps, (tx) =>
        recordAttempts(
          deps,
          tx,
          OPERATOR,
          claimed.map((c) => outcome(c.deliveryId, c.endpointId === flaky && day === 3 ? 200 : 503)),
        ),
      );
      if (day < 5) expect((await endpoint(dead)).enabled).toBe(true);
    }
    const disabled = await endpoint(dead);
    expect(disabled.enabled).toBe(false);
    expect(disabled.disabled_reason).toBe(`Every delivery attempt has failed since ${new Date(start).toISOString().replace(/\.\d{3}Z$/, "Z")}.`);
    expect((await endpoint(flaky)).enabled).toBe(true);
  });

  test("text a receiver wrote is stored cleaned, whoever sent it: NUL and other controls escaped, cut to 1024 characters", async () => {
    const ep = await newEndpoint();
    const [eventId] = await newEvents(1);
    await record([eventId!]);
    const [d] = (await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 })).filter((c) => c.endpointId === ep);
    const recorded = await inTransaction(deps, (tx) =>
      recordAttempts(deps, tx, OPERATOR, [{ ...outcome(d!.deliveryId, 200), responseExcerpt: "ok\0\x1b[2J" + "x".repeat(2000), error: "odd\0error" }]),
    );
    expect(recorded).toEqual({ recorded: 1, rejected: [] });
    const [attempt] = await db(deps.orm.em.fork())
      .selectFrom("webhook_attempts")
      .select(["response_excerpt", "error", "succeeded"])
      .where("delivery_id", "=", d!.deliveryId)
      .execute();
    expect(attempt!.succeeded).toBe(true);
    expect(attempt!.error).toBe("odd\\u0000error");
    expect(attempt!.response_excerpt).toBe("ok\\u0000\\u001b[2J" + "x".repeat(1024 - 17));
    await db(deps.orm.em.fork()).deleteFrom("webhook_endpoints").where("id", "=", ep).execute();
  });

  test("an outcome that cannot be recorded is rejected alone; the rest of its batch is recorded", async () => {
    const mine = [await newEndpoint(), await newEndpoint()];
    await record(await newEvents(2));
    const claimed = (await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 })).filter((c) => mine.includes(c.endpointId));
    expect(claimed).toHaveLength(4);
    const [a, b, c, d] = claimed.map((x) => x.deliveryId) as [string, string, string, string];
    const recorded = await inTransaction(deps, (tx) =>
      recordAttempts(deps, tx, OPERATOR, [
        outcome(a, 200),
        // The database refuses this one (latency_ms is an int column): only it is rolled back.
        { ...outcome(b, 200), latencyMs: 2 ** 31 },
        outcome(c, 500),
        { ...outcome(d, 200), attemptedAt: new Date(Number.NaN) },
      ]),
    );
    expect(recorded).toEqual({
      recorded: 2,
      rejected: [
        { index: 1, deliveryId: b, reason: "The core could not store this attempt (internal error)." },
        { index: 3, deliveryId: d, reason: "attempted_at must be an ISO 8601 time." },
      ],
    });
    const rows = await db(deps.orm.em.fork())
      .selectFrom("webhook_deliveries")
      .select(["id", "status", "attempt_count"])
      .where("id", "in", [a, b, c, d])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, [r.status, r.attempt_count]]));
    expect([a, b, c, d].map((id) => byId.get(id))).toEqual([
      ["succeeded", 1],
      ["pending", 0],
      ["pending", 1],
      ["pending", 0],
    ]);
    const attempts = await db(deps.orm.em.fork()).selectFrom("webhook_attempts").select("delivery_id").where("delivery_id", "in", [a, b, c, d]).execute();
    expect(attempts.map((x) => x.delivery_id).sort()).toEqual([a, c].sort());
    await db(deps.orm.em.fork()).deleteFrom("webhook_endpoints").where("id", "in", mine).execute();
  });

  test("attempts stored before excerpts were cleaned are shown cleaned", async () => {
    const ep = await newEndpoint();
    const [eventId] = await newEvents(1);
    await record([eventId!]);
    const [d] = (await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 10, leaseMs: 30_000 })).filter((c) => c.endpointId === ep);
    await db(deps.orm.em.fork())
      .insertInto("webhook_attempts")
      .values({
        delivery_id: d!.deliveryId,
        endpoint_id: ep,
        attempted_at: clock,
        succeeded: false,
        http_status: 500,
        error: null,
        latency_ms: 1,
        response_excerpt: "\x1b]0;owned\x07\u202Eboom",
      })
      .execute();
    const shown = await getDelivery(deps, deps.orm.em.fork(), OPERATOR, d!.deliveryId);
    expect(shown.attempts.map((a) => a.response_excerpt)).toEqual(["\\u001b]0;owned\\u0007\\u202eboom"]);
    await db(deps.orm.em.fork()).deleteFrom("webhook_endpoints").where("id", "=", ep).execute();
  });
});
