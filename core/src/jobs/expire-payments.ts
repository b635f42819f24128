import type { CoreDeps } from "../domain/deps.ts";
import { PAYABLE_STATUSES } from "../domain/payment-states.ts";
import { expireIfPayable } from "../domain/payment-transitions.ts";
import { eachRow, handleClaimed, type ClaimPolicy, type Tally, type WorkQueue } from "./claim.ts";

/** Payable payments whose PAYMENT_TTL has passed, oldest deadline first (payments_expiry_idx). */
export const duePayments: WorkQueue<"payments", { id: string }> = {
  job: "expire_payments",
  table: "payments",
  // A payment whose processor attempt is in flight waits for the attempt's outcome.
  due: (rows, now) =>
    rows
      .select("id")
      .where("status", "in", PAYABLE_STATUSES)
      .where("expires_at", "<=", now)
      .where((eb) => eb.or([eb("attempt_expires_at", "is", null), eb("attempt_expires_at", "<=", now)]))
      .orderBy("expires_at"),
};

/**
 * Expires one claimed batch of due payments in the claiming transaction.
 * Outcomes: "expired", or "not_payable" if a claimed payment was no longer
 * payable (cannot happen while the claim holds the row lock; counted so it would show).
 */
export function expireDuePayments(deps: CoreDeps, policy: ClaimPolicy): Promise<Tally> {
  return handleClaimed(
    deps,
    duePayments,
    policy,
    eachRow(deps, duePayments.job, async (tx, payment) => {
      const { value, events } = await expireIfPayable(deps, tx, payment.id);
      return { value: value ? "expired" : "not_payable", events };
    }),
  );
}
