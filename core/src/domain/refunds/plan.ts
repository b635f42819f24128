import type { CoreDeps } from "../deps.ts";
import { fail } from "../errors.ts";
import { newId } from "../ids.ts";
import { ledgerValues, lockMerchantFunds, type LedgerLineInput, type LedgerValues } from "../ledger.ts";
import type { RaisedEvent } from "../outbox.ts";
import { canApply, refundPart, refundRest, type TransitionResult } from "../payment-states.ts";
import type { Tx } from "../unit-of-work.ts";
import type { LockedPayment } from "./lock.ts";
import { toRefundView, type RefundReason, type RefundRow, type RefundView } from "./view.ts";

/** A refund decided under its payment's row lock, not yet written. */
export interface PlannedRefund {
  payment: LockedPayment;
  /** The payment's move, as the state table decided it (at the refund's own time). */
  move: TransitionResult;
  view: RefundView;
  ledger: LedgerValues;
  event: RaisedEvent;
}

/**
 * The refund of a payment whose row lock `tx` holds: the remainder is the amount less the running
 * total of its refunds read with the lock (`refunded_amount`), the state table decides the payment's move (refundPart, or refundRest when nothing
 * remains), and the refund row, its ledger transaction and refund.succeeded are prepared for
 * `refundWrites` (which reuses the row lock instead of locking the payment again).
 */
export async function planRefund(deps: CoreDeps, tx: Tx, payment: LockedPayment, asked: bigint | undefined, reason: RefundReason): Promise<PlannedRefund> {
  // The state table's refusal (payment_not_refundable, naming the status) comes before any amount check.
  if (!canApply("refundPart", payment.status)) refundPart(payment, deps.now());
  const remainder = BigInt(payment.amount) - BigInt(payment.refunded_amount);
  const amount = asked ?? remainder;
  if (amount > remainder) {
    fail(
      "refund_amount_exceeds_remaining",
      `The refund amount ${amount} exceeds what remains of the payment: ${remainder} (minor units of ${payment.currency}).`,
    );
  }
  const at = deps.now();
  const move = (amount === remainder ? refundRest : refundPart)(payment, at);
  const row: RefundRow = {
    id: newId("refund"),
    payment_id: payment.id,
    amount: amount.toString(),
    currency: payment.currency,
    reason,
    status: "succeeded",
    created_at: at,
  };
  const ledger = ledgerValues([
    {
      kind: "refund",
      merchantId: payment.merchant_id,
      mode: payment.mode,
      currency: payment.currency,
      at,
      paymentId: payment.id,
      refundId: row.id,
      lines: await refundLines(tx, payment, amount),
    },
  ]);
  const view = toRefundView(row);
  // refundPart/refundRest raise no payment.* event: their event is refund.succeeded, raised here with the Refund object.
  const event: RaisedEvent = { merchantId: payment.merchant_id, mode: payment.mode, type: "refund.succeeded", data: view, at };
  return { payment, move, view, ledger, event };
}

/**
 * Paytami pays the customer back from its cash; the merchant owes it. Before release the payment's
 * money is still pending, so it comes out of pending. After release it comes out of the available
 * balance as far as that goes (under the funds lock, so a payout cannot take the same money), and the
 * rest out of pending: a debt, shown as negative pending, settled by the next releases and payouts.
 * The fee is never returned (DESIGN §4).
 */
async function refundLines(tx: Tx, payment: LockedPayment, amount: bigint): Promise<LedgerLineInput[]> {
  const cash: LedgerLineInput = { account: "platform_cash", amount };
  if (payment.available_to_merchant_at === null) return [{ account: "merchant_pending", amount: -amount }, cash];
  const { available } = await lockMerchantFunds(tx, payment.merchant_id, payment.mode, payment.currency);
  const fromAvailable = available <= 0n ? 0n : available < amount ? available : amount;
  return [{ account: "merchant_available", amount: -fromAvailable }, { account: "merchant_pending", amount: fromAvailable - amount }, cash];
}
