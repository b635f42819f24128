import type { RawBuilder, SelectQueryBuilder } from "kysely";
import { db, type DB } from "../db/orm.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { fundsReceivedEntry, pendingShares, postLedger, releaseEntry, settlementBatchEntry, type LedgerEntry, type PaymentMoney } from "./ledger.ts";
import { TRANSITIONS, type PaymentOperation, type PaymentStatus, type TransitionStamp } from "./payment-states.ts";
import { statusAfter } from "./payment-transitions.ts";
import { PAYMENT_VIEW_COLUMNS, toPaymentView, type PaymentView } from "./payment-view.ts";
import { requireSandbox } from "./sandbox-only.ts";
import type { Changes, Tx } from "./unit-of-work.ts";

// Settlement (DESIGN §4 "Payment states"): captured → pending_settlement → settled_to_paytami →
// available_to_merchant, each step a row of the state table and a ledger transaction. The steps
// follow the payment's stamps, not its status: the processor settles what it captured even when part
// of it was refunded or is disputed, so a partially_refunded, refunded or chargeback payment is
// settled too (its stamps and ledger move; its status keeps saying what happened to it).

export interface SettlementStep {
  operation: "batchForSettlement" | "receiveFunds" | "releaseFunds";
  /** The stamp of the step before: the delay runs from it. */
  since: TransitionStamp;
  /** The stamp this step sets. */
  stamp: TransitionStamp;
  /** Index into SETTLEMENT_DELAYS. */
  delay: number;
  /** The status a payment of the batch ends in (`p` is the statement's payments). */
  status: RawBuilder<PaymentStatus>;
}

/** A step as the state table has it: its stamps and its move are the table's, built into SQL once here. */
function settlementStep(operation: SettlementStep["operation"], after: PaymentOperation, delay: number): SettlementStep {
  return { operation, since: TRANSITIONS[after].stamp, stamp: TRANSITIONS[operation].stamp, delay, status: statusAfter(operation, "p.status") };
}

export const SETTLEMENT_STEPS: readonly SettlementStep[] = [
  settlementStep("batchForSettlement", "capture", 0),
  settlementStep("receiveFunds", "batchForSettlement", 1),
  settlementStep("releaseFunds", "receiveFunds", 2),
];

/** Narrows a select of payments to those `step` applies to (payments_settle_*_idx). */
export function awaitingStep<O>(rows: SelectQueryBuilder<DB, "payments", O>, step: SettlementStep): SelectQueryBuilder<DB, "payments", O> {
  return rows.where(step.since, "is not", null).where(step.stamp, "is", null);
}

/**
 * Moves every payment `due` selects (a select of ids, locked by whoever built it) through `step`
 * with one UPDATE, and writes each one's ledger transaction with one INSERT: a batch of any size is
 * two round trips. Answers how many moved.
 */
export async function settleStep(
  deps: CoreDeps,
  tx: Tx,
  step: SettlementStep,
  due: SelectQueryBuilder<DB, "payments", { id: string }>,
): Promise<Changes<number>> {
  const at = deps.now();
  const moved: PaymentMoney[] = await db(tx)
    .updateTable("payments as p")
    .from(due.as("due"))
    .set({
      status: step.status,
      [step.stamp]: at,
      updated_at: at,
    })
    .whereRef("p.id", "=", "due.id")
    .where(`p.${step.since}`, "is not", null)
    .where(`p.${step.stamp}`, "is", null)
    .returning(["p.id", "p.merchant_id", "p.mode", "p.currency", "p.amount", "p.service_fee", "p.net_amount"])
    .execute();
  const shares =
    step.operation === "releaseFunds"
      ? await pendingShares(
          tx,
          moved.map((p) => p.id),
        )
      : new Map<string, bigint>();
  const entries: LedgerEntry[] = moved.map((p) => {
    if (step.operation === "batchForSettlement") return settlementBatchEntry(p, at);
    if (step.operation === "receiveFunds") return fundsReceivedEntry(p, at);
    return releaseEntry(p, shares.get(p.id) ?? 0n, at);
  });
  await postLedger(tx, entries);
  return { value: moved.length, events: [] };
}

/**
 * Every settlement step still ahead of one captured payment, now (`paytami simulate payment ID
 * settle`): the job's own statements, on just this payment. A payment never captured is refused,
 * and so is a live one: like the job, this settles test payments only.
 */
export async function settleNow(deps: CoreDeps, tx: Tx, paymentId: string): Promise<Changes<PaymentView>> {
  const thisPayment = () => db(tx).selectFrom("payments").where("id", "=", paymentId);
  const payment = await thisPayment().select(["id", "mode", "status", "captured_at"]).forUpdate().executeTakeFirst();
  if (!payment) throw new DomainError("unknown_payment", "No such payment.");
  requireSandbox(payment, "settle");
  if (!payment.captured_at) {
    throw new DomainError("payment_not_payable", `Cannot settle a payment in status ${payment.status}; it must have been captured.`);
  }
  for (const step of SETTLEMENT_STEPS) await settleStep(deps, tx, step, thisPayment().select("id"));
  const row = await db(tx).selectFrom("payments").select(PAYMENT_VIEW_COLUMNS).where("id", "=", paymentId).executeTakeFirstOrThrow();
  return { value: toPaymentView(deps.config, row), events: [] };
}
