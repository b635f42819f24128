// The request-log list's status filters as the planner sees them on a real PostgreSQL: failures are
// rare, so a 4xx or 5xx filter must not walk the whole list in date order (on a busy merchant's 30
// days of logs that is millions of rows read for a page); request_logs_failed_idx answers it.
import { sql } from "kysely";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { indexesOf, planNodes } from "../../../test/support/query-plan.ts";
import { db } from "../db/orm.ts";
import { merchantCaller } from "./caller.ts";
import { filteredRequestLogs, listRequestLogs, parseRequestLogFilters } from "./request-logs.ts";

const LOGS = 20_000;

let database: MigratedDatabase | undefined;
const caller = merchantCaller("mer_logs", "test", "session");

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => new Date() });
  // One 5xx in 1 000 requests, one 4xx in 200, the rest 2xx, one a second going back.
  await sql`
    insert into request_logs (merchant_id, mode, api_key_id, created_at, method, path, status, latency_ms, request_id, replayed)
    select ${caller.merchantId}, 'test', 'key_logs', now() - g * interval '1 second', 'POST', '/v1/payments',
           case when g % 1000 = 0 then 500 when g % 200 = 0 then 400 else 201 end, 12, 'req_' || g, false
    from generate_series(1, ${LOGS}) as g`.execute(db(database.orm.em.fork()));
  await sql`analyze request_logs`.execute(db(database.orm.em.fork()));
}, 60_000);

afterAll(() => database?.close());

/** The indexes the planner picks for the list's query (one page) with this status class. */
async function indexesFor(statusClass: string): Promise<string[]> {
  const em = database!.orm.em.fork();
  const query = filteredRequestLogs(em, caller, parseRequestLogFilters({ status_class: statusClass }), undefined).limit(26);
  return indexesOf(await planNodes(db(em), query));
}

test("a 5xx or 4xx filter is answered from the failures' index, a 2xx filter by walking the list", async () => {
  expect(await indexesFor("5xx")).toEqual(["request_logs_failed_idx"]);
  expect(await indexesFor("4xx")).toEqual(["request_logs_failed_idx"]);
  // Every log is this merchant's here, so the walk may be on request_logs_created_idx as well.
  const walk = await indexesFor("2xx");
  expect(walk).toHaveLength(1);
  expect(walk).not.toContain("request_logs_failed_idx");
});

test("the filtered list pages through the failures newest first", async () => {
  const tx = database!.orm.em.fork();
  const first = await listRequestLogs(database!.deps, tx, caller, { status_class: "5xx", limit: 15 });
  expect(first.data).toHaveLength(15);
  expect(first.has_more).toBe(true);
  expect(first.data.every((log) => log.status === 500)).toBe(true);
  const rest = await listRequestLogs(database!.deps, tx, caller, { status_class: "5xx", limit: 15, starting_after: first.data.at(-1)!.id });
  expect(rest.data).toHaveLength(LOGS / 1000 - 15);
  expect(rest.has_more).toBe(false);
  const times = [...first.data, ...rest.data].map((log) => log.created_at);
  expect(times).toEqual([...times].sort().reverse());
});
