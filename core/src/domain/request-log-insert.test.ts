// The request-log writer's insert on a real database: a batch becomes rows of the keys it names
// (unknown digests dropped), and the statement is prepared once per connection under its name.
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKeyDigest } from "../../../proto/api-key-digest.ts";
import type { RequestLogRecord } from "../../../proto/request-log.ts";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { nameStatement } from "../db/named-statements.ts";
import { databasePoolOptions } from "../db/primary.ts";
import { admin } from "../operations/admin.ts";
import { OPERATOR } from "./caller.ts";
import { runOperation } from "./operation.ts";
import { recordRequestLogs } from "./request-log-insert.ts";

let database: MigratedDatabase | undefined;
let pool: pg.Pool | undefined;
let testKey: string;
let merchantId: string;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => new Date() });
  const created = await runOperation(database.deps, admin.createMerchant, OPERATOR, { name: "Registros", currencies: [], methods: [] });
  ({ testApiKey: testKey, merchantId } = created);
  // One connection, as the writer's thread has: what it prepared is visible on it afterwards.
  pool = new pg.Pool({ ...databasePoolOptions(database.deps.config.databaseUrl, 5_000), max: 1 });
  // pool.end() resolves before its client's connection has closed; if the database is dropped first,
  // the server's "terminating connection" reaches the pool, which throws it with no listener.
  pool.on("error", () => undefined);
});

afterAll(async () => {
  await pool?.end();
  await database?.close();
});

const record = (requestId: string, key: string): RequestLogRecord => ({
  at: new Date().toISOString(),
  key_digest: apiKeyDigest(key),
  method: "POST",
  path: "/v1/payments",
  status: 201,
  code: null,
  latency_ms: 4,
  request_id: requestId,
  idempotency_key: "k-1",
  replayed: false,
  client_ip: "127.0.0.1",
  request_body: '{"amount":"10000"}',
  response_body: null,
});

it("writes the records of known keys with their merchant and mode, drops the rest, and prepares the statement once under its name", async () => {
  const unknown = `sk_test_${"z".repeat(32)}`;
  expect(await recordRequestLogs(pool!, [record("req-a", testKey), record("req-b", unknown)])).toBe(1);
  expect(await recordRequestLogs(pool!, [record("req-c", testKey)])).toBe(1);
  const rows = await pool!.query<{ request_id: string; merchant_id: string; mode: string; status: number; request_body: string }>(
    "select request_id, merchant_id, mode, status, request_body from request_logs order by seq",
  );
  expect(rows.rows).toEqual([
    { request_id: "req-a", merchant_id: merchantId, mode: "test", status: 201, request_body: '{"amount":"10000"}' },
    { request_id: "req-c", merchant_id: merchantId, mode: "test", status: 201, request_body: '{"amount":"10000"}' },
  ]);
  const prepared = await pool!.query<{ name: string; statement: string }>(
    "select name, statement from pg_prepared_statements where statement like 'insert into request_logs%'",
  );
  expect(prepared.rows).toHaveLength(1);
  expect(prepared.rows[0]!.name).toBe(nameStatement(prepared.rows[0]!.statement));
});
