import { db } from "../db/orm.ts";
import { DomainError, fail } from "./errors.ts";
import type { Tx } from "./unit-of-work.ts";

// Simulated steps, settlement on demand and chargebacks by hand stand in for the card network in
// test mode. In live mode only the live processor and bank may move a payment or its money: an
// operation that fakes their word refuses a live payment itself, whichever transport (gRPC, tRPC,
// the CLI) or credential reached it, before it writes anything.

/** Refuses `what` on a live payment, with the catalog code trigger uses for the same rule. */
export function requireSandbox(payment: { id: string; mode: string }, what: string): void {
  if (payment.mode !== "test") fail("validation_error", `${what} works in test mode only; ${payment.id} is a live payment.`);
}

/** The payment's mode (it never changes, so no lock is needed), refused when live; an unknown payment is unknown_payment. */
export async function requireSandboxPayment(tx: Tx, paymentId: string, what: string): Promise<void> {
  const payment = await db(tx).selectFrom("payments").select(["id", "mode"]).where("id", "=", paymentId).executeTakeFirst();
  if (!payment) throw new DomainError("unknown_payment", "No such payment.");
  requireSandbox(payment, what);
}
