// Writing the merchants' request logs (issue 17 item 4), apart from reading them (request-logs.ts):
// the writer's thread (jobs/request-log-thread.ts) loads only this, not the ORM.
import { sql, type Kysely } from "kysely";
import type { RequestLogRecord } from "../../../proto/request-log.ts";
import type { DB } from "../db/orm.ts";

/**
 * Inserts a batch with one statement: the records travel as one JSON parameter (json, not jsonb:
 * parsed once, never stored as jsonb), and the join on
 * api_keys.digest turns each key digest into the key's id, merchant and mode. A record whose digest
 * matches no key (a key that never existed, or one of another deployment) is dropped: there is no
 * merchant to show it to. Returns how many rows were written.
 */
export async function recordRequestLogs(database: Kysely<DB>, records: readonly RequestLogRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  const written = await sql<{ seq: string }>`
    insert into request_logs (merchant_id, mode, api_key_id, created_at, method, path, status, code, latency_ms, request_id,
                              idempotency_key, replayed, client_ip, request_body, response_body)
    select k.merchant_id, k.mode, k.id, r.at, r.method, r.path, r.status, r.code, r.latency_ms, r.request_id,
           r.idempotency_key, r.replayed, r.client_ip, r.request_body, r.response_body
    from json_to_recordset(${JSON.stringify(records)}::json) as r(at timestamptz, key_digest text, method text, path text, status smallint,
         code text, latency_ms int, request_id text, idempotency_key text, replayed boolean, client_ip text, request_body text, response_body text)
    join api_keys k on k.digest = r.key_digest`.execute(database);
  return Number(written.numAffectedRows ?? 0n);
}
