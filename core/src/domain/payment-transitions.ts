import { db } from "../db/orm.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { enqueueEvent } from "./outbox.ts";
import { expire, type PaymentStateFields, type PaymentStatus, type TransitionResult } from "./payment-states.ts";
import { PAYMENT_VIEW_COLUMNS, toPaymentView, type PaymentView } from "./payment-view.ts";

/** A step returns null when the payment is already where the step would take it. */
export type TransitionStep = (payment: PaymentStateFields, at: Date) => TransitionResult | null;

/**
 * Applies `steps` to one payment under a row lock, in one transaction that
 * also records the events they raise. Nothing else writes a payment's status.
 */
export async function transitionPayment(deps: CoreDeps, paymentId: string, steps: readonly TransitionStep[]): Promise<PaymentView> {
  return deps.orm.em.fork().transactional(async (tx) => {
    const trx = db(tx);
    const payment = await trx
      .selectFrom("payments")
      .select([...PAYMENT_VIEW_COLUMNS, "merchant_id", "mode", "status_before_chargeback"])
      .where("id", "=", paymentId)
      .forUpdate()
      .executeTakeFirst();
    if (!payment) throw new DomainError("unknown_payment", "No such payment.");
    let state: PaymentStateFields = { status: payment.status as PaymentStatus, status_before_chargeback: payment.status_before_chargeback as PaymentStatus | null };
    let view = toPaymentView(deps.config, payment);
    for (const step of steps) {
      const at = deps.now();
      const result = step(state, at);
      if (!result) continue;
      await trx
        .updateTable("payments")
        .set({ status: result.status, status_before_chargeback: result.status_before_chargeback, [result.stamp]: at, updated_at: at })
        .where("id", "=", paymentId)
        .execute();
      state = result;
      view = toPaymentView(deps.config, { ...payment, status: result.status });
      if (result.event?.startsWith("payment.")) {
        await enqueueEvent(trx, { merchantId: payment.merchant_id, mode: payment.mode, type: result.event, data: view, at });
      }
    }
    return view;
  });
}

/**
 * Expires a payment whose TTL has passed. Returns its new status, or undefined
 * when it was paid, canceled or expired by someone else in the meantime.
 */
export async function expireIfPayable(deps: CoreDeps, paymentId: string): Promise<PaymentStatus | undefined> {
  try {
    return (await transitionPayment(deps, paymentId, [expire])).status as PaymentStatus;
  } catch (error) {
    if (error instanceof DomainError && error.code === "payment_not_payable") return undefined;
    throw error;
  }
}
