import { db } from "../../db/orm.ts";
import { unauthorized } from "../api-keys.ts";
import type { CoreDeps } from "../deps.ts";
import { DomainError } from "../errors.ts";
import { replayOrConflict, type IdempotentResult } from "../idempotency.ts";
import { lockMerchantFunds, type LedgerValues } from "../ledger.ts";
import { outboxValues } from "../outbox.ts";
import type { TransitionResult } from "../payment-states.ts";
import { aloneOrTogether, GroupCommit, type Outcome as GroupOutcome } from "../group-commit.ts";
import type { Tx } from "../unit-of-work.ts";
import { LOCK_REFUNDS, WRITE_REFUNDS, type RefundBatchWriteValues, type RefundLockRow } from "./batch-statement.ts";
import { lockedPaymentOf, type LockedPayment } from "./lock.ts";
import { refundOnce } from "./once.ts";
import { planRefund, type PlannedRefund } from "./plan.ts";
import type { RefundRequest } from "./validate.ts";
import { DEFAULT_REFUND_REASON, unknownPayment, type RefundView } from "./view.ts";
import { writeRefundRecorded } from "./write.ts";

// Group commit of refunds (core/README.md "Group commit of refunds"): API-key refund requests that
// arrive while a refund batch is in flight wait for it, then run together in ONE transaction: one
// statement claims every key and locks every payment (batch-statement.ts), the refunds are planned
// in JS in arrival order (each payment's running remainder and state carried from one to the next),
// and one statement writes them all. Each request keeps its own answer: the one its own transaction
// (once.ts) would have given, had the requests run one after another in arrival order.

type Outcome = GroupOutcome<IdempotentResult<RefundView>>;

/** A refund request that may be batched: an API key's, with an Idempotency-Key. */
type BatchedRefund = RefundRequest & { key: string; owner: { kind: "api_key" } };

interface Queued {
  /** The request's own unit of work (outside any transaction); a batch runs in its first request's. */
  tx: Tx;
  request: BatchedRefund;
}

/** The sizes of the refund batches run so far (index: size). */
export const refundBatchSizes: number[] = [];

/** Refund batches whose transaction failed, whose requests then ran one by one (a deadlock between cores; anything else is a bug). */
export const refundBatchFailures = { count: 0 };

class RefundBatcher {
  readonly #queue: GroupCommit<Queued, IdempotentResult<RefundView>>;

  constructor(deps: CoreDeps) {
    this.#queue = new GroupCommit({
      name: "refund",
      policy: () => deps.config.refundBatch,
      // One statement cannot claim a row twice.
      key: ({ request }) => request.key,
      sizes: refundBatchSizes,
      run: aloneOrTogether({
        // One request: its own transaction, exactly as without batching.
        alone: ({ tx, request }) => refundOnce(deps, tx, request),
        // One transaction for all: it rolls back whole (e.g. a deadlock with another core's batch).
        together: (batch) =>
          batch[0]!.tx.transactional((inner) =>
            refundTogether(
              deps,
              inner,
              batch.map(({ request }) => request),
            ),
          ),
        failures: refundBatchFailures,
      }),
    });
  }

  submit(tx: Tx, request: BatchedRefund): Promise<IdempotentResult<RefundView>> {
    return this.#queue.submit({ tx, request });
  }
}

/** What a refused request gets: a catalog error is its answer; anything else is a bug and fails the batch (which then reruns one by one). */
function refused(error: unknown): Outcome {
  if (error instanceof DomainError) return { error };
  throw error;
}

/** The batch's work inside its transaction: every request's outcome, in order; throws (rolling everything back) only on a bug or a database failure. */
async function refundTogether(deps: CoreDeps, tx: Tx, batch: BatchedRefund[]): Promise<Outcome[]> {
  const now = deps.now();
  const { rows } = await LOCK_REFUNDS.run(db(tx), {
    digests: batch.map((r) => r.owner.key.digest),
    key_modes: batch.map((r) => r.owner.key.mode),
    keys: batch.map((r) => r.key),
    fingerprints: batch.map((r) => r.fingerprint),
    payment_ids: batch.map((r) => r.input.payment_id),
    now,
    expires_at: new Date(now.getTime() + deps.config.idempotencyTtlMs),
  });
  const payments = lockedPayments(rows);
  // Refunds of released payments take their merchant's funds lock (plan.ts): all of them first, in one order, so two batches never wait on each other's.
  const funds = [
    ...new Set([...payments.values()].filter((p) => p.available_to_merchant_at !== null).map((p) => `${p.merchant_id}\u0000${p.mode}\u0000${p.currency}`)),
  ];
  for (const f of funds.sort()) {
    const [merchantId, mode, currency] = f.split("\u0000") as [string, string, string];
    await lockMerchantFunds(tx, merchantId, mode, currency);
  }

  const outcomes: Outcome[] = [];
  const written: { planned: PlannedRefund; scope: string; key: string; response: string }[] = [];
  const released: { scope: string; key: string }[] = [];
  const moves = new Map<string, TransitionResult>();
  for (const [i, request] of batch.entries()) {
    const row = rows[i]!;
    const { key, fingerprint, input } = request;
    if (row.scope === null) {
      outcomes.push({ error: unauthorized() });
      continue;
    }
    const scope = row.scope;
    if (!row.claimed) {
      outcomes.push(await replayOrConflict<RefundView>(tx, scope, key, fingerprint).then((ok) => ({ ok }), refused));
      continue;
    }
    const payment = row.id === null ? undefined : payments.get(row.id);
    let planned: PlannedRefund;
    try {
      if (!payment) throw unknownPayment();
      planned = await planRefund(deps, tx, payment, input.amount === undefined ? undefined : BigInt(input.amount), input.reason ?? DEFAULT_REFUND_REASON);
    } catch (error) {
      outcomes.push(refused(error));
      released.push({ scope, key });
      continue;
    }
    // The next refund of this payment in the batch sees this one: its state and what remains.
    payments.set(payment.id, {
      ...payment,
      status: planned.move.status,
      status_before_chargeback: planned.move.status_before_chargeback,
      refunded_amount: (BigInt(payment.refunded_amount) + BigInt(planned.view.amount)).toString(),
    });
    const response = JSON.stringify(planned.view);
    // A released payment's refund reads the funds balance (plan.ts), which must count the batch's earlier refunds: written at once.
    if (payment.available_to_merchant_at !== null) await writeRefundRecorded(tx, planned, { scope, key, response });
    else {
      written.push({ planned, scope, key, response });
      moves.set(payment.id, planned.move);
    }
    outcomes.push({ ok: { value: planned.view, replayed: false } });
  }
  if (written.length > 0 || released.length > 0) await writeAll(tx, written, released, moves, payments);
  return outcomes;
}

/** Each payment the batch locked, with the running total of its refunds. */
function lockedPayments(rows: RefundLockRow[]): Map<string, LockedPayment> {
  const payments = new Map<string, LockedPayment>();
  for (const row of rows) {
    if (row.id === null || payments.has(row.id)) continue;
    payments.set(row.id, lockedPaymentOf({ ...row, id: row.id }));
  }
  return payments;
}

async function writeAll(
  tx: Tx,
  written: { planned: PlannedRefund; scope: string; key: string; response: string }[],
  released: { scope: string; key: string }[],
  moves: Map<string, TransitionResult>,
  payments: Map<string, LockedPayment>,
): Promise<void> {
  const views = written.map((w) => w.planned.view);
  const values: RefundBatchWriteValues = {
    move_ids: [...moves.keys()],
    move_statuses: [...moves.values()].map((m) => m.status),
    move_statuses_before_chargeback: [...moves.values()].map((m) => m.status_before_chargeback),
    move_at: [...moves.values()].map((m) => m.at),
    move_refunded_amounts: [...moves.keys()].map((id) => payments.get(id)!.refunded_amount),
    refund_ids: views.map((v) => v.id),
    refund_merchant_ids: written.map((w) => w.planned.payment.merchant_id),
    refund_modes: written.map((w) => w.planned.payment.mode),
    refund_payment_ids: views.map((v) => v.payment_id),
    refund_amounts: views.map((v) => v.amount),
    refund_currencies: views.map((v) => v.currency),
    refund_reasons: views.map((v) => v.reason),
    refund_statuses: views.map((v) => v.status),
    refund_created_at: written.map((w) => w.planned.event.at),
    answer_scopes: written.map((w) => w.scope),
    answer_keys: written.map((w) => w.key),
    answer_responses: written.map((w) => w.response),
    release_scopes: released.map((r) => r.scope),
    release_keys: released.map((r) => r.key),
    ...mergeLedger(written.map((w) => w.planned.ledger)),
    ...outboxValues(written.map((w) => w.planned.event)).values,
  };
  const { rows } = await WRITE_REFUNDS.run(db(tx), values);
  // The planner and the statement disagreed on the state table (a bug): the error rolls the batch back, and its requests run one by one.
  if (rows[0]!.moved !== moves.size) throw new Error(`refund batch: ${rows[0]!.moved} of ${moves.size} payments moved (the plan and the statement disagree)`);
}

/** Several refunds' ledger values as one: the arrays side by side (each refund's transaction is named by its own refund id). */
function mergeLedger(parts: LedgerValues[]): LedgerValues {
  const merged = {} as Record<keyof LedgerValues, unknown[]>;
  for (const part of parts) for (const [name, values] of Object.entries(part)) (merged[name as keyof LedgerValues] ??= []).push(...(values as unknown[]));
  for (const name of LEDGER_FIELDS) merged[name] ??= [];
  return merged as LedgerValues;
}

const LEDGER_FIELDS: (keyof LedgerValues)[] = [
  "tx_kinds",
  "tx_merchant_ids",
  "tx_modes",
  "tx_currencies",
  "tx_payment_ids",
  "tx_refund_ids",
  "tx_chargeback_ids",
  "tx_payout_ids",
  "tx_created_at",
  "line_kinds",
  "line_subjects",
  "line_accounts",
  "line_merchant_ids",
  "line_modes",
  "line_currencies",
  "line_payment_ids",
  "line_amounts",
];

const batchers = new WeakMap<CoreDeps, RefundBatcher>();

/** Runs a validated API-key refund request in the next refund batch of this core (`deps`). */
export function refundInBatch(deps: CoreDeps, tx: Tx, request: RefundRequest): Promise<IdempotentResult<RefundView>> {
  const { key, owner } = request;
  if (key === undefined || owner.kind !== "api_key") throw new Error("a batched refund is an API-key request with an Idempotency-Key");
  let batcher = batchers.get(deps);
  if (!batcher) batchers.set(deps, (batcher = new RefundBatcher(deps)));
  return batcher.submit(tx, { ...request, key, owner });
}
