import { db } from "../db/orm.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import type { LockedPayment } from "./payment-lock.ts";
import type { Tx } from "./unit-of-work.ts";

/**
 * Before a processor call that may authorize a link's payment (as lockPayable read it, under its row lock): the link must have room for one more
 * success once its captured payments and every other attempt in flight on it are counted. Otherwise
 * the card would be authorized for a payment the capture then refuses (countLinkSuccess), leaving
 * money held on the customer's card with nothing to capture it. Runs in the claim's transaction,
 * after the payment's row lock and under the link's (the order the capture takes them in), so two
 * claims at once count each other; countLinkSuccess stays the last word at capture.
 */
export async function requireLinkRoom(deps: CoreDeps, tx: Tx, payment: Pick<LockedPayment, "id" | "link_id">): Promise<void> {
  if (payment.link_id === null) return;
  const trx = db(tx);
  const link = await trx
    .selectFrom("links")
    .select(["max_payments", "succeeded_payments"])
    .where("id", "=", payment.link_id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (link.max_payments === null) return;
  if (link.succeeded_payments >= link.max_payments) {
    fail("payment_link_not_payable", "The payment link has reached its max_payments; this payment cannot succeed.");
  }
  const inFlight = await trx
    .selectFrom("payments")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("link_id", "=", payment.link_id)
    .where("attempt_expires_at", ">", deps.now())
    .where("id", "<>", payment.id)
    .executeTakeFirstOrThrow();
  if (link.succeeded_payments + Number(inFlight.n) >= link.max_payments) {
    fail("payment_link_not_payable", "The payment link's remaining payments are being paid by someone else right now; try again in a moment.");
  }
}
