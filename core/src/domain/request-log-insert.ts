// Writing the merchants' request logs (issue 17 item 4), apart from reading them (request-logs.ts):
// the writer's thread (jobs/request-log-thread.ts) loads only this, pg and the contract, not the
// ORM or Kysely (Kysely alone is ~18 MB more resident in a thread's isolate; its text is fixed anyway).
import type pg from "pg";
import { requestLogRecord, type RequestLogRecord } from "../../../proto/request-log.ts";
import { nameStatement } from "../db/named-statements.ts";

const FIELDS = Object.keys(requestLogRecord.shape) as (keyof RequestLogRecord)[];

/** Each field's SQL type, for its array parameter. */
const TYPES: Record<keyof RequestLogRecord, string> = {
  at: "timestamptz",
  key_digest: "text",
  method: "text",
  path: "text",
  status: "smallint",
  code: "text",
  latency_ms: "int",
  request_id: "text",
  idempotency_key: "text",
  replayed: "boolean",
  client_ip: "text",
  request_body: "text",
  response_body: "text",
};

const INSERT = `insert into request_logs (merchant_id, mode, api_key_id, created_at, method, path, status, code, latency_ms, request_id,
                          idempotency_key, replayed, client_ip, request_body, response_body)
select k.merchant_id, k.mode, k.id, r.at, r.method, r.path, r.status, r.code, r.latency_ms, r.request_id,
       r.idempotency_key, r.replayed, r.client_ip, r.request_body, r.response_body
from unnest(${FIELDS.map((field, i) => `$${i + 1}::${TYPES[field]}[]`).join(", ")}) as r(${FIELDS.join(", ")})
join api_keys k on k.digest = r.key_digest`;

// Sent as a named statement, parsed once per connection: the pool's client class names this text (db/named-statements.ts).
nameStatement(INSERT);

/**
 * Inserts a batch with one statement: the records travel as one array per column, taken apart by
 * `unnest`, and the join on api_keys.digest turns each key digest into the key's id, merchant and
 * mode. A record whose digest matches no key (a key that never existed, or one of another
 * deployment) is dropped: there is no merchant to show it to. Returns how many rows were written.
 *
 * Arrays, not the batch's JSON: PostgreSQL's JSON parser was most of the statement's cost
 * (json_to_recordset: 10.7 µs of backend CPU per ~1.2 KB record, unnest of arrays: 3.0; the whole
 * insert 16 against 9), more than building the arrays here costs (about 2.5 µs per record).
 */
export async function recordRequestLogs(database: Pick<pg.Pool, "query">, records: readonly RequestLogRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  const written = await database.query(
    INSERT,
    FIELDS.map((field) => records.map((record) => record[field])),
  );
  return written.rowCount ?? 0;
}
