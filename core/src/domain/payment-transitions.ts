import { sql, type RawBuilder } from "kysely";
import { db } from "../db/orm.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import type { RaisedEvent } from "./outbox.ts";
import { captureEntry, postLedger } from "./ledger.ts";
import {
  expire,
  TRANSITIONS,
  type DirectOperation,
  type PaymentOperation,
  type PaymentStateFields,
  type PaymentStatus,
  type TransitionResult,
} from "./payment-states.ts";
import { PAYMENT_VIEW_COLUMNS, toPaymentView, type PaymentView } from "./payment-view.ts";
import type { Changes, Tx } from "./unit-of-work.ts";

/** A step returns null when the payment is already where the step would take it. */
export type TransitionStep = (payment: PaymentStateFields, at: Date) => TransitionResult | null;

/**
 * Applies `steps` to one payment under a row lock held by `tx` (which must be
 * a transaction), and returns the payment afterwards with the events the steps
 * raised, for the caller to record in the same transaction. The only other
 * writers of a payment's status are statements that must stay one statement
 * (settlement's batch, a refund's writes): they take their states from the
 * same table, through `fromStates` and `statusAfter` below.
 */
export async function transitionPayment(deps: CoreDeps, tx: Tx, paymentId: string, steps: readonly TransitionStep[]): Promise<Changes<PaymentView>> {
  const trx = db(tx);
  const payment = await trx
    .selectFrom("payments")
    .select([...PAYMENT_VIEW_COLUMNS, "merchant_id", "mode", "status_before_chargeback", "link_id"])
    .where("id", "=", paymentId)
    .forUpdate()
    .executeTakeFirst();
  if (!payment) throw new DomainError("unknown_payment", "No such payment.");
  let state: PaymentStateFields = { status: payment.status, status_before_chargeback: payment.status_before_chargeback };
  let view = toPaymentView(deps.config, payment);
  const events: RaisedEvent[] = [];
  for (const step of steps) {
    const at = deps.now();
    const result = step(state, at);
    if (!result) continue;
    if (result.event === "payment.succeeded" && payment.link_id !== null) await countLinkSuccess(tx, payment.link_id);
    await trx.updateTable("payments").set(transitionColumns(result, at)).where("id", "=", paymentId).execute();
    // The capture's ledger transaction; settlement, refunds and chargebacks write their own (they know the amounts).
    if (result.stamp === "captured_at") await postLedger(tx, [captureEntry(payment, at)]);
    state = result;
    view = toPaymentView(deps.config, { ...payment, status: result.status });
    // Payment events carry the payment as GET /v1/payments/{id} shows it at that moment; refund and
    // chargeback events carry their own objects, raised by the operations that create those.
    if (result.event?.startsWith("payment.")) {
      events.push({ merchantId: payment.merchant_id, mode: payment.mode, type: result.event, data: view, at });
    }
  }
  return { value: view, events };
}

/**
 * What a transition writes to the payment row. The one definition, for transitionPayment and for an
 * operation that writes the move the state table decided in a statement of its own (a refund,
 * under the row lock it already holds).
 */
export function transitionColumns(result: TransitionResult, at: Date) {
  return { status: result.status, status_before_chargeback: result.status_before_chargeback, [result.stamp]: at, updated_at: at };
}

/**
 * The states `operation` moves a payment from, as SQL literals: for the WHERE of a statement that
 * writes the move itself, built once where the statement is (a PreparedStatement binds only its values).
 */
export function fromStates(operation: PaymentOperation): RawBuilder<PaymentStatus>[] {
  return TRANSITIONS[operation].from.map((status) => sql.lit(status));
}

/**
 * The status `column` holds after `operation`, as SQL, for a statement that moves a whole batch at
 * once: the operation's `to` where the status is one of its `from` states, the status unchanged
 * otherwise (settlement moves a refunded or disputed payment's stamps, not its status).
 */
export function statusAfter(operation: DirectOperation, column: string): RawBuilder<PaymentStatus> {
  const to: PaymentStatus = TRANSITIONS[operation].to;
  return sql<PaymentStatus>`case when ${sql.ref(column)} in (${sql.join(fromStates(operation))}) then ${sql.lit(to)} else ${sql.ref(column)} end`;
}

/**
 * A payment of a link succeeds only while the link is under its max_payments: the link's counter is
 * raised under the link's row lock in the capture's transaction, so of two payments captured at
 * once on a link with one payment left, the second waits for the first, sees the limit and is
 * refused (it stays payable until it expires; nothing is captured).
 */
async function countLinkSuccess(tx: Tx, linkId: string): Promise<void> {
  const counted = await db(tx)
    .updateTable("links")
    .set((eb) => ({ succeeded_payments: eb("succeeded_payments", "+", 1) }))
    .where("id", "=", linkId)
    .where((eb) => eb.or([eb("max_payments", "is", null), eb("succeeded_payments", "<", eb.ref("max_payments"))]))
    .executeTakeFirst();
  if (counted.numUpdatedRows === 0n) {
    throw new DomainError("payment_link_not_payable", "The payment link has reached its max_payments; this payment cannot succeed.");
  }
}

/**
 * Expires a payment whose TTL has passed. Its value is the new status, or
 * undefined when the payment was paid, canceled or expired by someone else in
 * the meantime.
 */
export async function expireIfPayable(deps: CoreDeps, tx: Tx, paymentId: string): Promise<Changes<PaymentStatus | undefined>> {
  // A processor attempt in flight decides this payment's fate; its record step comes next.
  const attempt = await db(tx).selectFrom("payments").select("attempt_expires_at").where("id", "=", paymentId).forUpdate().executeTakeFirst();
  if (attempt?.attempt_expires_at && attempt.attempt_expires_at > deps.now()) return { value: undefined, events: [] };
  try {
    const { value, events } = await transitionPayment(deps, tx, paymentId, [expire]);
    return { value: value.status, events };
  } catch (error) {
    // The state table refuses before anything is written, so the transaction is still usable.
    if (error instanceof DomainError && error.code === "payment_not_payable") return { value: undefined, events: [] };
    throw error;
  }
}
