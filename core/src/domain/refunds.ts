import type { MerchantCaller, PresentedCredential } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { replayOrConflict, type IdempotentResult } from "./idempotency.ts";
import { isId } from "./ids.ts";
import { lockOwnPayment, lockPayment } from "./refunds/lock.ts";
import { planRefund } from "./refunds/plan.ts";
import { validateRefundRequest, type CreateRefundCommand } from "./refunds/validate.ts";
import { DEFAULT_REFUND_REASON, unknownPayment, type RefundReason, type RefundView } from "./refunds/view.ts";
import { writeRefund, writeRefundRecorded } from "./refunds/write.ts";
import { atomically, type Changes, type Tx } from "./unit-of-work.ts";

export { getRefund, listRefunds, type ListRefundsQuery } from "./refunds/read.ts";
export type { CreateRefundCommand, RefundInput } from "./refunds/validate.ts";
export { DEFAULT_REFUND_REASON, REFUND_REASONS, type RefundReason, type RefundView } from "./refunds/view.ts";

// A refund in four steps, each its own file under refunds/: validate the request (validate.ts),
// lock the payment after claiming the idempotency key (lock.ts), plan the refund under that lock
// (plan.ts: the remainder, the state table's move, the ledger lines) and write it all in one
// statement (write.ts). Reading refunds back is read.ts; the public object is view.ts.

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
 * Runs its own short transaction (`tx` need not be one). A valid request takes three statements in
 * it: the first resolves the API key, claims the key (scope: merchant and mode) and only then locks
 * the payment, so a concurrent request with the same key waits for this one and replays it; the
 * second reads the remainder (only when the first cannot vouch for it: `lockOwnPayment`); the last
 * writes the refund. A refused request rolls the claim back. A request refused before the database
 * (its body) resolves its API key first, so the errors keep their order.
 */
export async function createRefund(
  deps: CoreDeps,
  tx: Tx,
  creator: PresentedCredential | MerchantCaller,
  command: CreateRefundCommand,
): Promise<IdempotentResult<RefundView>> {
  const { key, input, fingerprint, owner } = await validateRefundRequest(deps, tx, creator, command);
  return atomically(tx, async (inner): Promise<Changes<IdempotentResult<RefundView>>> => {
    const now = deps.now();
    const locked = await lockOwnPayment(
      inner,
      owner,
      input.payment_id,
      key === undefined
        ? undefined
        : {
            key,
            fingerprint,
            resourceId: input.payment_id,
            response: "",
            now,
            expiresAt: new Date(now.getTime() + deps.config.idempotencyTtlMs),
          },
    );
    if (locked.kind === "taken") return { value: await replayOrConflict(inner, locked.scope, key!, fingerprint), events: [] };
    if (locked.kind === "missing") throw unknownPayment();
    const planned = await planRefund(
      deps,
      inner,
      locked.payment,
      input.amount === undefined ? undefined : BigInt(input.amount),
      input.reason ?? DEFAULT_REFUND_REASON,
    );
    const response = JSON.stringify(planned.view);
    // One statement writes the refund and records its event in the outbox (so none is left for atomically to record).
    await writeRefundRecorded(inner, planned, key === undefined ? undefined : { scope: locked.scope, key, response });
    return { value: { value: planned.view, replayed: false }, events: [] };
  });
}
