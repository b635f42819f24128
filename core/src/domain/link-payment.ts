import { db } from "../db/orm.ts";
import type { PublicCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { isId } from "./ids.ts";
import { isPayable, type PaymentStatus } from "./payment-states.ts";
import type { Tx } from "./unit-of-work.ts";

export interface LinkPayment {
  payment_id: string;
  status: PaymentStatus;
  currency: string;
  amount: string;
}

const unknownPayment = () => new DomainError("unknown_payment", "No such payment on this link.");

/**
 * A payment made through this link, in the link's merchant and mode, for the link's landing page
 * (/l/{id}/done). The page is public and its URL is easy to forge, so it must never speak for a
 * payment the link did not take: another merchant's, another link's, another mode's, or an unknown
 * id all answer unknown_payment alike. A payable payment past its TTL is reported expired (what
 * the payment page would make it on its next read), without writing anything here.
 */
export async function getLinkPayment(
  deps: CoreDeps,
  tx: Tx,
  _caller: PublicCaller,
  { linkId, paymentId }: { linkId: string; paymentId: string },
): Promise<LinkPayment> {
  if (!isId("link", linkId) || !isId("pay", paymentId)) throw unknownPayment();
  const row = await db(tx)
    .selectFrom("payments")
    .innerJoin("links", "links.id", "payments.link_id")
    .select(["payments.id", "payments.status", "payments.currency", "payments.amount", "payments.expires_at"])
    .where("payments.id", "=", paymentId)
    .where("links.id", "=", linkId)
    .whereRef("payments.merchant_id", "=", "links.merchant_id")
    .whereRef("payments.mode", "=", "links.mode")
    .executeTakeFirst();
  if (!row) throw unknownPayment();
  const stored = row.status;
  const status: PaymentStatus = isPayable(stored) && row.expires_at <= deps.now() ? "expired" : stored;
  return { payment_id: row.id, status, currency: row.currency, amount: String(row.amount) };
}
