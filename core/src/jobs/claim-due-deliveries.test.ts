// The delivery claim's plan over a backlog the planner has no statistics for yet, as after a burst of
// events (autovacuum's ANALYZE comes later): the claim must read the due deliveries once, not run its
// per-endpoint walk again for each of them. With `id in (walk)` PostgreSQL took a semi join that
// re-ran the walk per due row: 36 ms a claim over 3 000 due deliveries, and one endpoint drained at
// 100-190 a second while the API was busy; `id = any(array(walk))` runs the walk once (0.7 ms).
import { CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openMigratedDatabase, rolledBack, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { merchantCaller, OPERATOR } from "../domain/caller.ts";
import { createMerchant } from "../domain/merchants.ts";
import { enqueueEvents } from "../domain/outbox.ts";
import { inTransaction } from "../domain/unit-of-work.ts";
import { recordDeliveries } from "../domain/webhook-deliveries.ts";
import { createEndpoint } from "../domain/webhook-endpoints.ts";
import { leaseStatement } from "./claim.ts";
import { claimDueDeliveries, dueDeliveries } from "./claim-due-deliveries.ts";

const BACKLOG = 2_000;
let database: MigratedDatabase | undefined;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => new Date() });
  // No ANALYZE behind the test's back: the planner sees the backlog as it does right after a burst.
  await sql`alter table webhook_deliveries set (autovacuum_enabled = false)`.execute(db(database.deps.orm.em.fork()));
});
afterAll(() => database?.close());

test("a claim over a backlog without planner statistics walks the endpoints once, not once per due delivery", { timeout: 60_000 }, async () => {
  const deps = database!.deps;
  const { merchantId } = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Atrasos S.A.", currencies: [], methods: [] }));
  await createEndpoint(deps, deps.orm.em.fork(), merchantCaller(merchantId, "test"), { url: "http://127.0.0.1:9/hooks", enabledEvents: [] });
  const at = new Date();
  const ids = await inTransaction(deps, async (tx) => ({
    value: (
      await enqueueEvents(
        tx,
        Array.from({ length: BACKLOG }, (_, i) => ({ merchantId, mode: "test", type: "payment.succeeded", data: { id: `pay_${i}` }, at })),
      )
    ).map((e) => e.id),
    events: [],
  }));
  await inTransaction(deps, (tx) => recordDeliveries(deps, tx, OPERATOR, ids));

  // EXPLAIN ANALYZE runs the lease: rolled back, so the claim below starts from the same backlog.
  const plan = await rolledBack(deps, async (tx) => {
    const lease = leaseStatement(deps, dueDeliveries(deps.config.webhooks.endpointConcurrency), { batch: 64, leaseMs: 30_000 }, tx).compile();
    const { rows } = await db(tx).executeQuery<{ "QUERY PLAN": string }>(
      CompiledQuery.raw(`explain (analyze, costs off, timing off) ${lease.sql}`, [...lease.parameters]),
    );
    return rows.map((row) => row["QUERY PLAN"]);
  });
  const loops = plan.map((line) => Number(/loops=(\d+)/.exec(line)?.[1] ?? 0));
  // Each node runs at most once per leased row (the UPDATE's lookups), never once per due delivery.
  expect(Math.max(...loops), plan.join("\n")).toBeLessThanOrEqual(deps.config.webhooks.endpointConcurrency);

  // And the claim itself: the endpoint's bound, each a different delivery of the backlog.
  const claimed = await claimDueDeliveries(deps, deps.orm.em.fork(), OPERATOR, { limit: 64, leaseMs: 30_000 });
  expect(claimed).toHaveLength(deps.config.webhooks.endpointConcurrency);
  expect(new Set(claimed.map((d) => d.eventId)).size).toBe(claimed.length);
  expect(claimed.every((d) => ids.includes(d.eventId))).toBe(true);
});
