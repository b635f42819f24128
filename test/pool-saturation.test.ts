// Issue 19: a core whose PostgreSQL pool is saturated (every connection busy: a slow database, many
// clients during a failover) answers a request that waited DB_CONNECT_TIMEOUT for a connection 503
// processor_unavailable with Retry-After, as failover does, never 500 internal_error; nothing of that
// request is written, so the same Idempotency-Key creates the payment once the pool drains. /healthz
// and /metrics show the saturation. The pool here has two connections, both held by list requests
// that wait on a lock the test takes on api_keys (the first thing every API-key request reads);
// creations and refunds (group commit on, as by default) then find no connection.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { describe, expect, test } from "vitest";
import { createOk, driveToState, useStack, validBody } from "./support/expect.ts";
import { coreMetricSamples } from "./support/core-metrics.ts";
import { eventually } from "./support/eventually.ts";
import { HttpClient } from "./support/http.ts";

const stack = useStack({ allow503: true, env: { DB_POOL_SIZE: "2", DB_CONNECT_TIMEOUT: "2s", DB_POOL_RETRY_AFTER: "3s" } });

describe("PostgreSQL pool saturation", () => {
  test(
    "a request that cannot get a connection → 503 processor_unavailable with Retry-After, nothing written; /healthz and /metrics say so",
    { timeout: 60_000 },
    async () => {
      const s = stack();
      const core = new HttpClient(s.coreHttpUrl);
      const merchant = await s.admin.createMerchant({ name: "Pool Shop" });
      const key = merchant.testApiKey;
      // Refunds of another merchant's captured payment (so the first merchant's payments stay the ones created here).
      const refunder = (await s.admin.createMerchant({ name: "Pool Refunds" })).testApiKey;
      const captured = (await createOk(s.http, refunder)).id as string;
      await driveToState(s, captured, "captured");
      const refund = (idem: string) => s.http.post("/v1/refunds", { key: refunder, body: { payment_id: captured, amount: "100" }, idem });
      const metric = async (sample: string) => (await coreMetricSamples([s.coreHttpUrl], s.internalToken)).get(sample);

      const locker = new pg.Client({ connectionString: s.databaseUrl });
      await locker.connect();
      const refused = [randomUUID(), randomUUID(), randomUUID()];
      const refusedRefunds = [randomUUID(), randomUUID(), randomUUID()];
      let holders: Promise<Array<{ status: number }>>;
      try {
        await locker.query("BEGIN");
        await locker.query("LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE");
        // Two reads take both connections and wait on the lock with them.
        holders = Promise.all([s.http.listPayments(key), s.http.listPayments(key)]);
        await eventually(
          async () => {
            const [row] = await s.sql<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1",
              [(locker as unknown as { processID: number }).processID],
            );
            return row!.n >= 2 ? true : undefined;
          },
          15_000,
          "two requests holding the pool's connections",
        );

        // Creations arriving together: the first alone, the next two as one group-commit statement; refunds
        // the same, meanwhile (one after the other, the holders would outwait the facade's 10 s deadline).
        const started = Date.now();
        const [answers, refundAnswers] = await Promise.all([
          Promise.all(refused.map((idem) => s.http.createPayment(key, validBody(), { idem }))),
          Promise.all(refusedRefunds.map(refund)),
        ]);
        for (const res of [...answers, ...refundAnswers]) {
          expect(res.status, res.text).toBe(503);
          expect(res.json).toEqual({ error: { code: "processor_unavailable", message: expect.stringMatching(/overloaded/) } });
          expect(res.header("retry-after")).toBe("3");
        }
        // They waited DB_CONNECT_TIMEOUT for a connection (well within the facade's 10 s deadline).
        expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);

        const health = await core.get("/healthz");
        expect(health.status, health.text).toBe(503);
        expect(health.json.checks.pool).toBe(false);
        expect(health.json.pool).toMatchObject({ max: 2, total: 2, idle: 0, saturated: true });
        expect(health.json.pool.acquireTimeouts).toBeGreaterThanOrEqual(refused.length - 1);
        expect(await metric("paytami_core_db_pool_acquire_timeouts")).toBeGreaterThanOrEqual(refused.length - 1);
        expect(await metric('paytami_core_db_pool_connections{state="busy"}')).toBe(2);
        expect(await metric('paytami_core_db_pool_connections{state="max"}')).toBe(2);
        // A saturated batch is not split into one statement per request (each would wait again).
        expect(await metric("paytami_core_create_batch_failures")).toBe(0);
        // The refund batch whose transaction got no connection, the same: answered at once, not rerun one
        // transaction per request (which would count as a failed batch).
        expect(await metric('paytami_core_refund_batches{size="2"}')).toBe(1);
        expect(await metric("paytami_core_refund_batch_failures")).toBe(0);
      } finally {
        await locker.query("ROLLBACK").catch(() => undefined);
        await locker.end();
      }

      // The held requests complete once the lock is gone; the refused ones wrote nothing.
      expect((await holders).map((r) => r.status)).toEqual([200, 200]);
      expect(await s.sql("SELECT key FROM idempotency_keys WHERE key = ANY($1)", [refused])).toEqual([]);
      expect(await s.sql("SELECT id FROM payments WHERE merchant_id = $1", [merchant.merchantId])).toEqual([]);

      // The same key, retried as Retry-After says, creates the payment once; a replay finds it.
      const retried = await s.http.createPayment(key, validBody(), { idem: refused[0] });
      expect(retried.status, retried.text).toBe(201);
      const replay = await s.http.createPayment(key, validBody(), { idem: refused[0] });
      expect(replay.status).toBe(201);
      expect(replay.json.id).toBe(retried.json.id);
      expect(await s.sql("SELECT id FROM payments WHERE merchant_id = $1", [merchant.merchantId])).toHaveLength(1);

      // Nor did the refused refunds; the same key, retried, refunds once.
      expect(await s.sql("SELECT key FROM idempotency_keys WHERE key = ANY($1)", [refusedRefunds])).toEqual([]);
      expect(await s.sql("SELECT id FROM refunds WHERE payment_id = $1", [captured])).toEqual([]);
      const refunded = await refund(refusedRefunds[0]!);
      expect(refunded.status, refunded.text).toBe(201);
      expect(await s.sql("SELECT amount FROM refunds WHERE payment_id = $1", [captured])).toEqual([{ amount: "100" }]);

      // The saturation passes with the load: /healthz is 200 again within DB_CONNECT_TIMEOUT.
      await eventually(async () => ((await core.get("/healthz")).status === 200 ? true : undefined), 10_000, "/healthz 200 again");
      expect(await metric("paytami_core_db_pool_waiting")).toBe(0);
    },
  );
});
