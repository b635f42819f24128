import { sql } from "kysely";
import { PreparedStatement, statementBuilder } from "../../db/prepared.ts";
import { isActiveKey } from "../api-keys.ts";
import { LEDGER_TRANSACTIONS_CTE, ledgerLinesInsert, ledgerTransactionsInsert, type LedgerValues } from "../ledger.ts";
import { outboxInsert, outboxNotify, outboxQueued, type OutboxValues } from "../outbox.ts";
import { TRANSITIONS } from "../payment-states.ts";
import { fromStates } from "../payment-transitions.ts";
import type { LockedRow } from "./lock.ts";

/** A batch's requests as parallel arrays, element i being request i's (all of them API-key requests with an Idempotency-Key). */
export type RefundLockValues = {
  digests: string[];
  key_modes: string[];
  keys: string[];
  fingerprints: string[];
  payment_ids: string[];
  now: Date;
  expires_at: Date;
};

/** One row per request, in order (see LOCK_REFUNDS). */
export interface RefundLockRow extends Omit<LockedRow, "id"> {
  /** The owner's idempotency scope; null: the API key did not resolve. */
  scope: string | null;
  /** Whether this request won its key (false: an earlier request holds it). */
  claimed: boolean;
  /** The payment, locked; null when it is not the owner's (or the request did not win its key). */
  id: string | null;
}

// The API key's SELECT, fed each row's columns (a lateral join), with the same activity test as everywhere else.
const owner = statementBuilder
  .selectFrom("api_keys")
  .select(["api_keys.merchant_id", "api_keys.mode", sql<string>`api_keys.merchant_id || ':' || api_keys.mode`.as("scope")])
  .where("api_keys.digest", "=", sql.ref<string>("r.digest"))
  .where("api_keys.mode", "=", sql.ref<string>("r.key_mode"))
  .where(isActiveKey(sql.ref("r.now") as unknown as Date));

/**
 * lock.ts's locking statement over arrays: request i is row i of `unnest`. It resolves every API key,
 * claims every key (one multi-row insert in (scope, key) order; a key held elsewhere drops only its
 * own row: `on conflict … do update … where expired`, as claimKey), and only then locks the payments
 * of the requests that won their keys and own them, in id order (`order by` before `for update`:
 * two batches lock their common payments in the same order, so they never deadlock). As in lock.ts,
 * each locked row carries the running total of its payment's refunds (refunded_amount).
 */
export const LOCK_REFUNDS = new PreparedStatement<RefundLockValues, RefundLockRow>((v) => {
  const statement = sql<RefundLockRow>`with r as (
  select r.*, ${v.now}::timestamptz as now, ${v.expires_at}::timestamptz as expires_at
  from unnest(${v.digests}::text[], ${v.key_modes}::text[], ${v.keys}::text[], ${v.fingerprints}::text[], ${v.payment_ids}::text[])
    with ordinality as r(digest, key_mode, key, fingerprint, payment_id, ord)
),
owner as (select r.ord, o.merchant_id, o.mode, o.scope from r cross join lateral ${owner} as o),
claim as (
  insert into idempotency_keys (scope, key, fingerprint, resource_id, response, created_at, expires_at)
  select owner.scope, r.key, r.fingerprint, r.payment_id, '', r.now, r.expires_at
  from owner join r on r.ord = owner.ord
  order by owner.scope, r.key
  on conflict (scope, key) do update set fingerprint = excluded.fingerprint, resource_id = excluded.resource_id, response = excluded.response,
    created_at = excluded.created_at, expires_at = excluded.expires_at
  where idempotency_keys.expires_at <= excluded.created_at
  returning idempotency_keys.scope, idempotency_keys.key
),
wanted as (
  select distinct r.payment_id, owner.scope from r join owner on owner.ord = r.ord join claim on claim.scope = owner.scope and claim.key = r.key
),
locked as (
  select p.id, p.merchant_id, p.mode, p.status, p.status_before_chargeback, p.amount, p.currency, p.available_to_merchant_at,
    p.refunded_amount, wanted.scope
  from payments p join wanted on p.id = wanted.payment_id
  where p.merchant_id || ':' || p.mode = wanted.scope
  order by p.id
  for update of p
)
select owner.scope, claim.key is not null as claimed, locked.id, locked.merchant_id, locked.mode, locked.status, locked.status_before_chargeback,
  locked.amount, locked.currency, locked.available_to_merchant_at, locked.refunded_amount
from r
left join owner on owner.ord = r.ord
left join claim on claim.scope = owner.scope and claim.key = r.key
left join locked on locked.id = r.payment_id and locked.scope = owner.scope and claim.key is not null
order by r.ord`;
  // Raw, not wrapped in a builder: a statement whose CTEs write must be the top level.
  return { compile: () => statement.compile(statementBuilder) };
});

export type RefundBatchWriteValues = {
  /** Each moved payment once, with the state the last of its refunds left it in. */
  move_ids: string[];
  move_statuses: string[];
  move_statuses_before_chargeback: (string | null)[];
  move_at: Date[];
  /** Each moved payment's running total of refunds once the batch's refunds of it are counted (the row is locked since LOCK_REFUNDS). */
  move_refunded_amounts: string[];
  refund_ids: string[];
  refund_merchant_ids: string[];
  refund_modes: string[];
  refund_payment_ids: string[];
  refund_amounts: string[];
  refund_currencies: string[];
  refund_reasons: string[];
  refund_statuses: string[];
  refund_created_at: Date[];
  /** The keys of the refunds written, and their responses. */
  answer_scopes: string[];
  answer_keys: string[];
  answer_responses: string[];
  /** The keys this batch claimed for requests it refused: released, as a rollback of their own transaction would. */
  release_scopes: string[];
  release_keys: string[];
} & LedgerValues &
  OutboxValues;

const REFUND_STAMP = TRANSITIONS.refundPart.stamp;

/**
 * write.ts's statement over arrays: every payment's move and running refund total (matched only in a state the state table
 * refunds from, so `moved` counts exactly the payments that moved), every refund row, their ledger
 * transactions and lines, every key's response, the release of the keys of refused requests, the
 * outbox rows and the notification.
 */
export const WRITE_REFUNDS = new PreparedStatement<RefundBatchWriteValues, { moved: number; notified: string }>((v) => {
  const statement = sql<{ moved: number; notified: string }>`with m as (
  select * from unnest(${v.move_ids}::text[], ${v.move_statuses}::text[], ${v.move_statuses_before_chargeback}::text[], ${v.move_at}::timestamptz[], ${v.move_refunded_amounts}::bigint[])
    as m(id, status, status_before_chargeback, at, refunded_amount)
),
payment_moved as (
  update payments p set status = m.status, status_before_chargeback = m.status_before_chargeback, ${sql.id(REFUND_STAMP)} = m.at, updated_at = m.at,
    refunded_amount = m.refunded_amount
  from m where p.id = m.id and p.status in (${sql.join(fromStates("refundPart"))})
  returning p.id
),
refund_written as (
  insert into refunds (id, merchant_id, mode, payment_id, amount, currency, reason, status, created_at, updated_at)
  select f.id, f.merchant_id, f.mode, f.payment_id, f.amount, f.currency, f.reason, f.status, f.created_at, f.created_at
  from unnest(${v.refund_ids}::text[], ${v.refund_merchant_ids}::text[], ${v.refund_modes}::text[], ${v.refund_payment_ids}::text[],
    ${v.refund_amounts}::bigint[], ${v.refund_currencies}::text[], ${v.refund_reasons}::text[], ${v.refund_statuses}::text[], ${v.refund_created_at}::timestamptz[])
    with ordinality as f(id, merchant_id, mode, payment_id, amount, currency, reason, status, created_at, n)
  order by f.n
  returning refunds.id
),
${sql.table(LEDGER_TRANSACTIONS_CTE)} as ${ledgerTransactionsInsert(v)},
ledger_lines_written as ${ledgerLinesInsert(v)},
key_answered as (
  update idempotency_keys k set response = a.response
  from unnest(${v.answer_scopes}::text[], ${v.answer_keys}::text[], ${v.answer_responses}::text[]) as a(scope, key, response)
  where k.scope = a.scope and k.key = a.key
  returning k.key
),
key_released as (
  delete from idempotency_keys k using unnest(${v.release_scopes}::text[], ${v.release_keys}::text[]) as d(scope, key)
  where k.scope = d.scope and k.key = d.key
  returning k.key
),
events_written as ${outboxInsert(v)},
events_queued as ${outboxQueued("events_written")}
select (select count(*) from payment_moved)::int as moved, ${outboxNotify} as notified`;
  return { compile: () => statement.compile(statementBuilder) };
});
