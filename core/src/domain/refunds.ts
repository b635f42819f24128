import type { MerchantCaller, PresentedCredential } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import type { IdempotentResult } from "./idempotency.ts";
import { isId } from "./ids.ts";
import { refundInBatch } from "./refunds/batch.ts";
import { lockPayment } from "./refunds/lock.ts";
import { refundOnce } from "./refunds/once.ts";
import { planRefund } from "./refunds/plan.ts";
import { validateRefundRequest, type CreateRefundCommand } from "./refunds/validate.ts";
import { DEFAULT_REFUND_REASON, unknownPayment, type RefundReason, type RefundView } from "./refunds/view.ts";
import { writeRefund } from "./refunds/write.ts";
import type { Changes, Tx } from "./unit-of-work.ts";

export { getRefund, listRefunds, type ListRefundsQuery } from "./refunds/read.ts";
export type { CreateRefundCommand, RefundInput } from "./refunds/validate.ts";
export { DEFAULT_REFUND_REASON, REFUND_REASONS, type RefundReason, type RefundView } from "./refunds/view.ts";

// A refund in four steps, each its own file under refunds/: validate the request (validate.ts),
// lock the payment after claiming the idempotency key (lock.ts), plan the refund under that lock
// (plan.ts: the remainder, the state table's move, the ledger lines) and write it all in one
// statement (write.ts); once.ts runs them for one request, batch.ts for a group commit of many. Reading refunds back is read.ts; the public object is view.ts.

/**
 * The money operation: refunds `amount` (default: all that remains) of a payment, whoever asks, in
 * `tx` (a transaction; the caller records the returned events). Takes the payment's row lock first,
 * so concurrent refunds of one payment run one after another and each counts every refund committed
 * before it. Throws unknown_payment, payment_not_refundable, refund_amount_exceeds_remaining.
 */
export async function refundPayment(
  deps: CoreDeps,
  tx: Tx,
  paymentId: string,
  amount: bigint | undefined,
  reason: RefundReason | undefined,
): Promise<Changes<RefundView>> {
  if (!isId("pay", paymentId)) throw unknownPayment();
  const payment = await lockPayment(tx, paymentId);
  if (!payment) throw unknownPayment();
  const planned = await planRefund(deps, tx, payment, amount, reason ?? DEFAULT_REFUND_REASON);
  await writeRefund(tx, planned);
  return { value: planned.view, events: [planned.event] };
}

/**
 * POST /v1/refunds for an API key or an operator acting for a merchant. Check order: Idempotency-Key,
 * credential, body shape, the payment (the caller's own, else unknown_payment), its state, the amount.
 * Runs its own short transaction (`tx` need not be one): refunds/once.ts, or, for an API key outside
 * any transaction, the next group commit of refunds in this core (refunds/batch.ts), which answers
 * every request exactly as its own transaction would. A request refused before the database (its
 * body) resolves its API key first, so the errors keep their order.
 */
export async function createRefund(
  deps: CoreDeps,
  tx: Tx,
  creator: PresentedCredential | MerchantCaller,
  command: CreateRefundCommand,
): Promise<IdempotentResult<RefundView>> {
  const request = await validateRefundRequest(deps, tx, creator, command);
  // Inside a caller's transaction a batch (which commits on its own) must not take part: the request runs there.
  if (deps.config.refundBatch.on && request.owner.kind === "api_key" && !tx.isInTransaction()) return refundInBatch(deps, tx, request);
  return refundOnce(deps, tx, request);
}
