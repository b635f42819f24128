import { sql } from "kysely";
import { db } from "../../db/orm.ts";
import { PreparedStatement, statementBuilder } from "../../db/prepared.ts";
import { LEDGER_TRANSACTIONS_CTE, ledgerLinesInsert, ledgerTransactionsInsert, type LedgerValues } from "../ledger.ts";
import { outboxInsert, outboxNotify, outboxQueued, outboxValues, type OutboxValues } from "../outbox.ts";
import { TRANSITIONS, type PaymentStatus } from "../payment-states.ts";
import { fromStates, transitionColumns } from "../payment-transitions.ts";
import type { Tx } from "../unit-of-work.ts";
import type { PlannedRefund } from "./plan.ts";

type RefundWriteValues = {
  payment_id: string;
  payment_status: PaymentStatus;
  payment_status_before_chargeback: PaymentStatus | null;
  moved_at: Date;
  refund_id: string;
  merchant_id: string;
  mode: string;
  amount: string;
  currency: string;
  reason: string;
  refund_status: string;
  created_at: Date;
  /** The key whose response this refund is (null: none, the update matches nothing). Its row was claimed by an earlier statement. */
  key_scope: string | null;
  key: string | null;
  response: string;
} & LedgerValues;

// Either refund move (refundPart, refundRest: the plan chose by the remainder) is written by the one
// statement: both leave the same states and stamp the same column (write.test.ts holds the statement
// to the table for both).
const REFUND_STAMP = TRANSITIONS.refundPart.stamp;

/**
 * Every write of a planned refund, in one statement: the payment's move and running refund total, the refund row, its ledger
 * transaction and lines, the idempotency key's response. The move is the state table's twice over:
 * its values are the table's result (planRefund), and it matches the payment only in a state the
 * table refunds from, so the statement selects a row exactly when the payment moved.
 */
const refundWrites = (v: RefundWriteValues) => {
  const move = { status: v.payment_status, status_before_chargeback: v.payment_status_before_chargeback, stamp: REFUND_STAMP, at: v.moved_at, event: null };
  return statementBuilder
    .with("payment_moved", (qc) =>
      qc
        .updateTable("payments")
        // The running total of its refunds (lock.ts reads it as the remainder's base), on the row this refund holds locked.
        .set({ ...transitionColumns(move, v.moved_at), refunded_amount: sql<string>`refunded_amount + ${v.amount}::bigint` })
        .where("id", "=", v.payment_id)
        .where("status", "in", fromStates("refundPart"))
        .returning("payments.id"),
    )
    .with("refund_written", (qc) =>
      qc
        .insertInto("refunds")
        .values({
          id: v.refund_id,
          merchant_id: v.merchant_id,
          mode: v.mode,
          payment_id: v.payment_id,
          amount: v.amount,
          currency: v.currency,
          reason: v.reason,
          status: v.refund_status,
          created_at: v.created_at,
          updated_at: v.created_at,
        })
        .returning("refunds.id"),
    )
    .with(LEDGER_TRANSACTIONS_CTE, () => ledgerTransactionsInsert(v))
    .with("ledger_lines_written", () => ledgerLinesInsert(v))
    .with("key_answered", (qc) =>
      qc
        .updateTable("idempotency_keys")
        .set({ response: v.response })
        .where("scope", "=", v.key_scope)
        .where("key", "=", v.key)
        .returning("idempotency_keys.key"),
    );
};

// `1` inline: a PreparedStatement binds only its values.
const REFUND_WRITES = new PreparedStatement((v: RefundWriteValues) =>
  refundWrites(v)
    .selectFrom("payment_moved")
    .select(sql<number>`1`.as("written")),
);

/** The same, recording the refund's events in the outbox too (createRefund: its transaction is this operation's alone). */
const REFUND_WRITES_RECORDED = new PreparedStatement((v: RefundWriteValues & OutboxValues) =>
  refundWrites(v)
    .with("events_written", () => outboxInsert(v))
    .with("events_queued", () => outboxQueued("events_written"))
    .selectFrom("payment_moved")
    .select(outboxNotify.as("notified")),
);

/** The planner and the statement disagreed on the state table: the error rolls the whole refund back. */
function requireMoved(rows: readonly unknown[], planned: PlannedRefund): void {
  if (rows.length === 0)
    throw new Error(`refund of ${planned.payment.id}: the payment is in no state the state table refunds from (the plan and the statement disagree)`);
}

/** Writes a planned refund in one statement; its event is the caller's to record. */
export async function writeRefund(tx: Tx, planned: PlannedRefund): Promise<void> {
  requireMoved((await REFUND_WRITES.run(db(tx), refundWriteValues(planned, undefined))).rows, planned);
}

/** Writes a planned refund, answers its idempotency key (if any) and records its event in the outbox, in one statement. */
export async function writeRefundRecorded(
  tx: Tx,
  planned: PlannedRefund,
  answers: { scope: string; key: string; response: string } | undefined,
): Promise<void> {
  const { rows } = await REFUND_WRITES_RECORDED.run(db(tx), {
    ...refundWriteValues(planned, answers),
    ...outboxValues([planned.event]).values,
  });
  requireMoved(rows, planned);
}

function refundWriteValues(planned: PlannedRefund, answers: { scope: string; key: string; response: string } | undefined): RefundWriteValues {
  const { payment, move, view } = planned;
  if (move.stamp !== REFUND_STAMP) throw new Error(`a refund move stamps ${REFUND_STAMP}, not ${move.stamp}`);
  return {
    payment_id: payment.id,
    payment_status: move.status,
    payment_status_before_chargeback: move.status_before_chargeback,
    moved_at: move.at,
    refund_id: view.id,
    merchant_id: payment.merchant_id,
    mode: payment.mode,
    amount: view.amount,
    currency: view.currency,
    reason: view.reason,
    refund_status: view.status,
    created_at: planned.event.at,
    key_scope: answers?.scope ?? null,
    key: answers?.key ?? null,
    response: answers?.response ?? "",
    ...planned.ledger,
  };
}
