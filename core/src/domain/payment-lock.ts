import { db } from "../db/orm.ts";
import type { Mode } from "../config.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { isId } from "./ids.ts";
import { isPayable, type PaymentStatus } from "./payment-states.ts";
import { expireIfPayable } from "./payment-transitions.ts";
import type { Changes, Tx } from "./unit-of-work.ts";

/** What the operations that act on a payable payment (attempts, cancels) read under its row lock. */
export interface LockedPayment {
  id: string;
  merchant_id: string;
  mode: Mode;
  status: PaymentStatus;
  method_type: string;
  currency: string;
  amount: string;
  challenge_pending: boolean;
  challenge_reference: string | null;
  card_brand: string | null;
  card_last4: string | null;
  bank_reference: string | null;
  attempt_expires_at: Date | null;
  /** The payment link it was made through, if any. */
  link_id: string | null;
}

/** Either the payment, still payable and locked; or the state that refuses it (committed: an expiry found here is kept). */
export type Payable = { payable: true; payment: LockedPayment } | { payable: false; status: PaymentStatus };

/**
 * Locks a payment that is to be acted on, inside `tx` (a transaction). A payment past its TTL is
 * expired here, like checkout does, and is not payable; so is one whose processor attempt is in
 * flight (another core or request holds its attempt lease), so nothing changes under a processor call.
 * `scope` limits it to one merchant and mode (another's answers unknown_payment).
 */
export async function lockPayable(deps: CoreDeps, tx: Tx, paymentId: string, scope?: { merchantId: string; mode: Mode }): Promise<Changes<Payable>> {
  const unknown = new DomainError("unknown_payment", "No such payment.");
  if (!isId("pay", paymentId)) throw unknown;
  let query = db(tx)
    .selectFrom("payments")
    .select([
      "id",
      "merchant_id",
      "mode",
      "status",
      "method_type",
      "currency",
      "amount",
      "challenge_pending",
      "challenge_reference",
      "card_brand",
      "card_last4",
      "bank_reference",
      "attempt_expires_at",
      "link_id",
      "expires_at",
    ])
    .where("id", "=", paymentId);
  if (scope) query = query.where("merchant_id", "=", scope.merchantId).where("mode", "=", scope.mode);
  const row = await query.forUpdate().executeTakeFirst();
  if (!row) throw unknown;
  const now = deps.now();
  const status = row.status;
  if (!isPayable(status)) return { value: { payable: false, status }, events: [] };
  // An attempt in flight decides the payment's fate before its TTL does (expireIfPayable waits for it too).
  if (row.attempt_expires_at !== null && row.attempt_expires_at > now) {
    throw new DomainError("payment_not_payable", "A payment attempt on this payment is in progress; try again in a moment.");
  }
  if (row.expires_at <= now) {
    const { value, events } = await expireIfPayable(deps, tx, row.id);
    return { value: { payable: false, status: value ?? status }, events };
  }
  const { expires_at: _expiresAt, ...payment } = row;
  return { value: { payable: true, payment: { ...payment, mode: row.mode as Mode, status, amount: String(row.amount) } }, events: [] };
}

export function notPayable(status: PaymentStatus): never {
  throw new DomainError("payment_not_payable", `This payment is ${status} and accepts no further attempt.`);
}
