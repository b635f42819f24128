// The REQUEST_LOG_RETENTION purge against a real PostgreSQL: rows past the retention go, batch by
// batch, found through request_logs_created_idx rather than a scan of the whole table. (A BRIN index
// there was tried: a range's summary never narrows when its rows are purged, and the freed pages
// take new rows, so in time every range is a candidate and each purge run reads the whole table.)
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { expiredRequestLogs, purgeExpiredRequestLogs } from "./purge-request-logs.ts";

const DAY = 86_400_000;
let database: MigratedDatabase | undefined;
const clock = new Date("2026-11-26T12:00:00.000Z");
let deps: CoreDeps;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => clock });
  ({ deps } = database);
});

afterAll(() => database?.close());

/** `n` logged requests, the oldest `ageMs` old, one a second younger each (written in that order, as the writer does). */
async function logged(n: number, ageMs: number, path: string): Promise<void> {
  await sql`insert into request_logs (merchant_id, mode, api_key_id, created_at, method, path, status, latency_ms, request_id, replayed)
    select 'mer_x', 'test', 'key_x', ${new Date(clock.getTime() - ageMs)}::timestamptz + make_interval(secs => i), 'POST', ${path}, 201, 3, 'req_' || i, false
    from generate_series(0, ${n - 1}) i`.execute(db(deps.orm.em.fork()));
}

it("purges logs older than REQUEST_LOG_RETENTION batch by batch and keeps younger ones; with none due, it reads the index, not the table", async () => {
  await logged(5, 40 * DAY, "/v1/old");
  await logged(50_000, 10 * DAY, "/v1/young");
  const retention = 30 * DAY;
  const config = { ...deps.config, requestLogs: { ...deps.config.requestLogs, retentionMs: retention } };
  expect(await purgeExpiredRequestLogs({ ...deps, config }, { batch: 2 })).toEqual({ purged: 2 });
  expect(await purgeExpiredRequestLogs({ ...deps, config }, { batch: 2 })).toEqual({ purged: 2 });
  expect(await purgeExpiredRequestLogs({ ...deps, config }, { batch: 2 })).toEqual({ purged: 1 });
  expect(await purgeExpiredRequestLogs({ ...deps, config }, { batch: 2 })).toEqual({});
  const left = await sql<{ path: string; n: number }>`select path, count(*)::int as n from request_logs group by path`.execute(db(deps.orm.em.fork()));
  expect(left.rows).toEqual([{ path: "/v1/young", n: 50_000 }]);

  // What every purge run between expiries does: its select, as the claim runs it, reads the index
  // up to the first row that is not due, so a table of millions is not read to find nothing.
  await sql`vacuum analyze request_logs`.execute(db(deps.orm.em.fork()));
  const due = expiredRequestLogs(retention)
    .due(db(deps.orm.em.fork()).selectFrom("request_logs") as never, clock)
    .limit(5_000);
  const plan = await sql<{ "QUERY PLAN": string }>`explain (analyze, buffers, costs off, timing off, summary off) ${due}`.execute(db(deps.orm.em.fork()));
  const text = plan.rows.map((row) => row["QUERY PLAN"]).join("\n");
  expect(text).toMatch(/Index (Only )?Scan using request_logs_created_idx/);
  expect(text).not.toContain("Seq Scan");
  // The statement's own pages (its top node's buffers; planning's come after): a couple of index pages.
  expect(Number(/Buffers: shared hit=(\d+)/.exec(text)?.[1])).toBeLessThan(10);
});
