// The claim mechanism against a real PostgreSQL (a throw-away database on the
// server of DATABASE_URL, which `npm test` provides). Two claimers here are two
// transactions on two pooled connections, as two cores would be.
import { setTimeout as sleep } from "node:timers/promises";
import type { MikroORM } from "@mikro-orm/postgresql";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { outboxQueued } from "../domain/outbox.ts";
import { jobRuns } from "../metrics.ts";
import { claimLeased, completeLeased, completionStatement, eachRow, handleClaimed, type Tally } from "./claim.ts";
import { claimUnpublished, unpublishedEvents } from "./outbox-relay.ts";
import { expiredIdempotencyKeys, purgeExpiredIdempotencyKeys } from "./purge-idempotency-keys.ts";

let database: MigratedDatabase | undefined;
let orm: MikroORM;
let clock = new Date("2026-11-21T12:00:00.000Z");
let deps: CoreDeps;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 6, now: () => clock });
  ({ orm, deps } = database);
});

afterAll(() => database?.close());

beforeEach(async () => {
  clock = new Date("2026-11-21T12:00:00.000Z");
  await db(orm.em.fork()).deleteFrom("idempotency_keys").execute();
  await db(orm.em.fork()).deleteFrom("outbox_events").execute();
  await db(orm.em.fork()).deleteFrom("outbox_pending").execute();
});

/** `n` idempotency keys that expired a minute ago, named k000, k001, … */
async function expiredKeys(n: number): Promise<string[]> {
  const keys = Array.from({ length: n }, (_, i) => `k${String(i).padStart(3, "0")}`);
  const at = new Date(clock.getTime() - 60_000);
  await db(orm.em.fork())
    .insertInto("idempotency_keys")
    .values(keys.map((key) => ({ scope: "s", key, fingerprint: "f", resource_id: "r", response: "{}", created_at: at, expires_at: at })))
    .execute();
  return keys;
}

/** `n` unpublished outbox events evt000, evt001, … in that order; their queue rows' seqs. */
async function pendingEvents(n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `evt${String(i).padStart(3, "0")}`);
  await queued(ids.map((id) => ({ id, envelope: JSON.stringify({ id }) })));
  return ids;
}

/** Outbox events (each envelope as the JSON text to store) and their queue rows, the queue's through outbox.ts; returns the seqs. */
async function queued(events: { id: string; envelope: string }[]): Promise<string[]> {
  const rows = await db(orm.em.fork())
    .with("written", (q) =>
      q
        .insertInto("outbox_events")
        .values(
          events.map(({ id, envelope }) => ({
            id,
            merchant_id: "m",
            mode: "test",
            type: "payment.succeeded",
            envelope: sql`${envelope}::json`,
            created_at: clock,
          })),
        )
        .returning("seq"),
    )
    .with("queued", () => outboxQueued("written"))
    .selectFrom("queued")
    .select("seq")
    .execute();
  return rows.map((row) => row.seq).sort((a, b) => Number(a) - Number(b));
}

/** The relay's claim: the queued events leased, with what it publishes of each. */
const claimEvents = (policy: { batch: number; leaseMs: number }) => claimUnpublished(deps, policy);

const remainingKeys = async () => (await db(orm.em.fork()).selectFrom("idempotency_keys").select("key").orderBy("key").execute()).map((r) => r.key);

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("handleClaimed (work inside the claiming transaction)", () => {
  it("a second claimer passes over rows the first holds, without waiting for it, and gets the next ones", async () => {
    await expiredKeys(30);
    const firstHolds = deferred();
    const releaseFirst = deferred();
    const seen: Record<"first" | "second", string[]> = { first: [], second: [] };
    const claimer = (who: "first" | "second", hold?: boolean) =>
      handleClaimed(deps, expiredIdempotencyKeys, { batch: 10 }, async (_tx, rows) => {
        seen[who] = rows.map((r) => r.key);
        if (hold) {
          firstHolds.resolve();
          await releaseFirst.promise;
        }
        return { value: { seen: rows.length }, events: [] };
      });
    const first = claimer("first", true);
    await firstHolds.promise;
    // The first claimer's transaction is still open here; without SKIP LOCKED the second would block on it.
    const second = claimer("second");
    const blocked = await Promise.race([second.then(() => false), sleep(10_000).then(() => true)]);
    releaseFirst.resolve();
    await Promise.all([first, second]);
    expect(blocked, "the second claimer waited for the first one's locks").toBe(false);
    expect(seen.first).toEqual(Array.from({ length: 10 }, (_, i) => `k${String(i).padStart(3, "0")}`));
    expect(seen.second).toEqual(Array.from({ length: 10 }, (_, i) => `k${String(i + 10).padStart(3, "0")}`));
  });

  it("many concurrent claimers take every due row exactly once, never more than the batch each", async () => {
    const keys = await expiredKeys(200);
    const claimed: string[] = [];
    const batches: number[] = [];
    const claimer = async () => {
      for (;;) {
        let got = 0;
        await handleClaimed(deps, expiredIdempotencyKeys, { batch: 7 }, async (tx, rows) => {
          got = rows.length;
          batches.push(rows.length);
          claimed.push(...rows.map((r) => r.key));
          await db(tx)
            .deleteFrom("idempotency_keys")
            .where(
              "key",
              "in",
              rows.map((r) => r.key),
            )
            .execute();
          return { value: { done: rows.length }, events: [] };
        });
        if (got === 0) return;
      }
    };
    await Promise.all([claimer(), claimer(), claimer(), claimer()]);
    expect(claimed.length).toBe(keys.length);
    expect(new Set(claimed).size).toBe(keys.length);
    expect(Math.max(...batches)).toBeLessThanOrEqual(7);
    expect(await remainingKeys()).toEqual([]);
  });

  it("respects the batch bound and leaves rows that are not due", async () => {
    await expiredKeys(25);
    await db(orm.em.fork())
      .insertInto("idempotency_keys")
      .values({
        scope: "s",
        key: "fresh",
        fingerprint: "f",
        resource_id: "r",
        response: "{}",
        created_at: clock,
        expires_at: new Date(clock.getTime() + 60_000),
      })
      .execute();
    const runs: Tally[] = [];
    for (let i = 0; i < 4; i++) runs.push(await purgeExpiredIdempotencyKeys(deps, { batch: 10 }));
    expect(runs).toEqual([{ purged: 10 }, { purged: 10 }, { purged: 5 }, {}]);
    expect(await remainingKeys()).toEqual(["fresh"]);
  });

  it("rolls the whole batch back when the work fails, so its rows are due again", async () => {
    await expiredKeys(5);
    await expect(
      handleClaimed(deps, expiredIdempotencyKeys, { batch: 10 }, async (tx, rows) => {
        await db(tx)
          .deleteFrom("idempotency_keys")
          .where(
            "key",
            "in",
            rows.map((r) => r.key),
          )
          .execute();
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await remainingKeys()).toHaveLength(5);
    expect(await purgeExpiredIdempotencyKeys(deps, { batch: 10 })).toEqual({ purged: 5 });
  });

  it("eachRow rolls a failing row back alone: the others commit, the failed one stays due", async () => {
    await expiredKeys(4);
    const tally = await handleClaimed(
      deps,
      expiredIdempotencyKeys,
      { batch: 10 },
      eachRow(deps, "test", async (tx, row) => {
        await db(tx).deleteFrom("idempotency_keys").where("key", "=", row.key).execute();
        if (row.key === "k001") throw new Error("broken row");
        return { value: "purged", events: [] };
      }),
    );
    expect(tally).toEqual({ purged: 3, failed: 1 });
    expect(await remainingKeys()).toEqual(["k001"]);
  });

  it("records the events the work raised in the outbox, in the claiming transaction", async () => {
    await expiredKeys(2);
    await handleClaimed(deps, expiredIdempotencyKeys, { batch: 10 }, async (_tx, rows) => ({
      value: { noted: rows.length },
      events: rows.map((r) => ({ merchantId: "m", mode: "test", type: "payment.failed", data: { key: r.key }, at: clock })),
    }));
    const events = await db(orm.em.fork()).selectFrom("outbox_events").select("envelope").execute();
    expect(events.map((e) => (e.envelope as { data: { key: string } }).data.key).sort()).toEqual(["k000", "k001"]);
  });

  it("counts outcomes in paytami_core_job_items_total", async () => {
    const before = (await jobRuns.get()).values.find((v) => v.labels.job_name === "purge_idempotency_keys" && v.labels.outcome === "purged")?.value ?? 0;
    await expiredKeys(3);
    await purgeExpiredIdempotencyKeys(deps, { batch: 10 });
    const after = (await jobRuns.get()).values.find((v) => v.labels.job_name === "purge_idempotency_keys" && v.labels.outcome === "purged")?.value;
    expect(after).toBe(before + 3);
  });
});

describe("claimLeased / completeLeased (work outside any transaction)", () => {
  it("walks the queue's index in order, so the entries of rows that left the queue are marked dead and not read again", async () => {
    // Autovacuum would clear the dead entries itself, at a moment of its choosing (3 000 dead rows
    // are over its threshold): off for this test's throw-away database, so what is measured is the claim.
    await sql`alter table outbox_pending set (autovacuum_enabled = false)`.execute(db(orm.em.fork()));
    const seqs = await queued(Array.from({ length: 3_000 }, (_, i) => ({ id: `evt${i}`, envelope: "{}" })));
    // Deleted through a sequential scan, which marks no index entry dead (a walk of the index would).
    const publish = (done: string[]) =>
      orm.em.fork().transactional(async (tx) => {
        await sql`select set_config('enable_indexscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`.execute(db(tx));
        await db(tx).deleteFrom("outbox_pending").where("seq", "in", done).execute();
      });
    await publish(seqs);
    await queued([{ id: "evt-new", envelope: "{}" }]);
    // What a bitmap scan of the queue's primary key returns: every entry not yet marked dead.
    const entriesRead = async () => {
      const plan = await orm.em.fork().transactional(async (tx) => {
        await sql`set local enable_indexscan = off`.execute(db(tx));
        await sql`set local enable_indexonlyscan = off`.execute(db(tx));
        await sql`set local enable_seqscan = off`.execute(db(tx));
        return sql<{ "QUERY PLAN": string }>`explain (analyze, costs off, timing off, summary off)
          select seq from outbox_pending where seq > 0`.execute(db(tx));
      });
      const scan = plan.rows.map((row) => row["QUERY PLAN"]).find((line) => line.includes("Bitmap Index Scan on outbox_pending_pkey"));
      return Number(/rows=(\d+)/.exec(scan ?? "")?.[1]);
    };
    expect(await entriesRead()).toBeGreaterThanOrEqual(3_000);
    const claim = () => claimEvents({ batch: 100, leaseMs: 60_000 });
    expect((await claim()).map((event) => event.id)).toEqual(["evt-new"]);
    // An entry is marked only once its row is dead to every transaction; under a busy suite a
    // snapshot held elsewhere in this database (autovacuum's ANALYZE of these 3 000 rows) can delay
    // that, so the next claims (which find nothing new) get their turn. Without the ordered walk
    // no claim ever marks one.
    let left = await entriesRead();
    for (const deadline = Date.now() + 10_000; left >= 10 && Date.now() < deadline; left = await entriesRead()) {
      await sleep(200);
      expect(await claim()).toEqual([]);
    }
    expect(left).toBeLessThan(10);
    await sql`alter table outbox_pending reset (autovacuum_enabled)`.execute(db(orm.em.fork()));
  });

  const lease = { batch: 10, leaseMs: 30_000 };

  it("a leased row is not claimed again until its lease runs out; then any claimer gets it back", async () => {
    const ids = await pendingEvents(3);
    const first = await claimEvents(lease);
    expect(first.map((e) => e.id)).toEqual(ids);
    expect(first[0]).toMatchObject({ mode: "test", type: "payment.succeeded", envelope: JSON.stringify({ id: "evt000" }) });

    clock = new Date(clock.getTime() + 29_000);
    expect(await claimEvents(lease)).toEqual([]);

    // The claimer died without completing: after the lease the rows are back in the pool.
    clock = new Date(clock.getTime() + 1_000);
    const again = await claimEvents(lease);
    expect(again.map((e) => e.id)).toEqual(ids);
    expect(await claimEvents(lease)).toEqual([]);
  });

  it("completed rows leave the pool for good; the others return after the lease", async () => {
    const ids = await pendingEvents(4);
    const claimed = await claimEvents(lease);
    await completeLeased(
      deps,
      unpublishedEvents,
      claimed.slice(0, 2).map((e) => e.seq),
      "delete",
      "published",
    );
    const rows = await db(orm.em.fork())
      .selectFrom("outbox_events as e")
      .leftJoin("outbox_pending as p", "p.seq", "e.seq")
      .select(["e.id", "p.seq", "p.claimed_until"])
      .orderBy("e.seq")
      .execute();
    // The events stay in the store; the queue keeps the two still leased.
    expect(rows.map((r) => [r.id, r.seq !== null, r.claimed_until !== null])).toEqual([
      [ids[0], false, false],
      [ids[1], false, false],
      [ids[2], true, true],
      [ids[3], true, true],
    ]);
    // A completion that clears the lease only (NATS refused the publish) puts the row back at once.
    await completeLeased(deps, unpublishedEvents, [claimed[2]!.seq], {}, "refused");
    expect((await claimEvents(lease)).map((e) => e.id)).toEqual([ids[2]]);
    clock = new Date(clock.getTime() + 31_000);
    expect((await claimEvents(lease)).map((e) => e.id)).toEqual(ids.slice(2));
  });

  it("completion is one statement text for any number of keys (named, so planned once per connection)", () => {
    const trx = db(orm.em.fork());
    for (const done of ["delete", {}] as const) {
      const one = completionStatement(trx, unpublishedEvents, ["1"], done);
      const many = completionStatement(
        trx,
        unpublishedEvents,
        Array.from({ length: 40 }, (_, i) => String(i)),
        done,
      );
      expect(many.sql).toBe(one.sql);
      expect(many.sql).toContain("::bigint[]");
      expect(many.parameters).toHaveLength(one.parameters.length);
      expect(many.parameters).toContainEqual(Array.from({ length: 40 }, (_, i) => String(i)));
    }
  });

  it("a claimed event carries its envelope as the text stored, byte for byte (what the relay publishes)", async () => {
    // Spacing and key order no JSON.stringify of a parsed copy would give back.
    const stored = '{"id": "evt_text",  "type":"refund.succeeded", "data": {"b": 1, "a": [1, 2]}}';
    await queued([{ id: "evt_text", envelope: stored }]);
    const [claimed] = await claimEvents(lease);
    expect(claimed?.envelope).toBe(stored);
  });

  it("concurrent claimers get disjoint batches of at most `batch` rows that together cover every row", async () => {
    const seqs = await queued(Array.from({ length: 100 }, (_, i) => ({ id: `evt${i}`, envelope: "{}" })));
    const claimAll = () => Promise.all(Array.from({ length: 6 }, () => claimLeased(deps, unpublishedEvents, { batch: 12, leaseMs: 30_000 })));
    const batches = [...(await claimAll()), ...(await claimAll())];
    const all = batches.flatMap((batch) => batch.map((row) => row.seq));
    for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(12);
    expect(all.length).toBe(seqs.length);
    expect([...all].sort((a, b) => Number(a) - Number(b))).toEqual(seqs);
  });
});
