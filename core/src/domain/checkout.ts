import { createHmac } from "node:crypto";
import type { Currency, Mode } from "../config.ts";
import { db } from "../db/orm.ts";
import { answerWithin } from "../processor/deadline.ts";
import type { BeneficiaryAccount } from "../processor/processor.ts";
import { processorFor } from "../processor/processor-for.ts";
import type { PublicCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { signEmbedToken, verifyEmbedToken } from "./embed-token.ts";
import { isId } from "./ids.ts";
import { isPayable, notPayableReason, type PaymentStatus } from "./payment-states.ts";
import { expireIfPayable } from "./payment-transitions.ts";
import { pageBranding, type PageBranding } from "./settings/page-branding.ts";
import { atomically, type Tx } from "./unit-of-work.ts";

// The public payment id is the credential for checkout (spec 4.4/4.5): these
// operations need no API key, and reveal only what the customer may see.

export interface HostedPayment {
  payment_id: string;
  status: PaymentStatus;
  currency: string;
  amount: string;
  description: string | null;
  merchant_trade_name: string;
  method_type: string;
  payable: boolean;
  reason: string | null;
  success_url: string;
  cancel_url: string;
  mode: string;
  card_brand: string | null;
  card_last4: string | null;
  /** Where to send the money and the reference to quote, once the customer started a bank transfer. */
  bank_transfer: (BeneficiaryAccount & { reference: string }) | null;
  challenge_pending: boolean;
  /** The merchant's registered embed origins (live mode frames and posts to these only). */
  embed_origins: string[];
  /** The merchant's colours and logo (Settings). */
  branding: PageBranding;
}

/**
 * What the hosted payment page shows, and whether the payment still accepts an
 * attempt. A payment past its TTL is expired on the spot, atomically on its
 * own (the read itself needs no transaction), so the expiry stays even when
 * the caller goes on to refuse the payment.
 */
export async function getHostedPayment(deps: CoreDeps, tx: Tx, _caller: PublicCaller, paymentId: string): Promise<HostedPayment> {
  if (!isId("pay", paymentId)) fail("unknown_payment", "No such payment.");
  const row = await db(tx)
    .selectFrom("payments")
    .innerJoin("merchants", "merchants.id", "payments.merchant_id")
    .leftJoin("merchant_logos", "merchant_logos.merchant_id", "payments.merchant_id")
    .select([
      "payments.id",
      "payments.status",
      "payments.currency",
      "payments.amount",
      "payments.description",
      "payments.method_type",
      "payments.success_url",
      "payments.cancel_url",
      "payments.mode",
      "payments.expires_at",
      "merchants.trade_name",
      "payments.card_brand",
      "payments.card_last4",
      "payments.bank_reference",
      "payments.challenge_pending",
      "merchants.embed_origins",
      "merchants.brand_color",
      "merchants.accent_color",
      "merchant_logos.sha256 as logo_sha256",
      "merchant_logos.content_type as logo_type",
    ])
    .where("payments.id", "=", paymentId)
    .executeTakeFirst();
  if (!row) throw new DomainError("unknown_payment", "No such payment.");
  let status = row.status;
  if (isPayable(status) && row.expires_at <= deps.now()) {
    // The expiry job may not have run yet; the customer must never pay an expired charge.
    status = (await atomically(tx, (inner) => expireIfPayable(deps, inner, row.id))) ?? status;
  }
  const reason = notPayableReason(status);
  // The account is the processor's to say (sandbox: configuration); only a started transfer has a reference.
  const account =
    row.bank_reference === null
      ? null
      : await answerWithin(deps.config, { mode: row.mode as Mode, call: "bank_transfer_account" }, (signal) =>
          processorFor(deps, row.mode as Mode).bankTransferAccount(row.currency as Currency, signal),
        );
  return {
    payment_id: row.id,
    status,
    currency: row.currency,
    amount: String(row.amount),
    description: row.description,
    merchant_trade_name: row.trade_name,
    method_type: row.method_type,
    payable: reason === null,
    reason,
    success_url: row.success_url,
    cancel_url: row.cancel_url,
    mode: row.mode,
    card_brand: row.card_brand,
    card_last4: row.card_last4,
    bank_transfer: account && row.bank_reference ? { ...account, reference: row.bank_reference } : null,
    challenge_pending: row.challenge_pending && status === "processing",
    embed_origins: row.embed_origins,
    branding: pageBranding(row),
  };
}

/** GET /v1/checkout/{id}: where the customer's browser goes, or why it cannot pay. */
export async function resolveCheckout(deps: CoreDeps, tx: Tx, caller: PublicCaller, paymentId: string): Promise<string> {
  const payment = await getHostedPayment(deps, tx, caller, paymentId);
  if (!payment.payable) fail("payment_not_payable", `This payment is ${payment.status} and accepts no further attempt.`);
  return `${deps.config.publicBaseUrl}/pay/${payment.payment_id}`;
}

export interface CheckoutSession {
  payment_id: string;
  payable: boolean;
  checkout_url?: string;
  reason?: string;
}

function embedSecret(deps: CoreDeps): string {
  return createHmac("sha256", deps.config.embedTokenSecret).update("paytami embed token v1").digest("hex");
}

/** GET /v1/payments/{id}/checkout_session. */
export async function getCheckoutSession(deps: CoreDeps, tx: Tx, caller: PublicCaller, paymentId: string): Promise<CheckoutSession> {
  const payment = await getHostedPayment(deps, tx, caller, paymentId);
  if (!payment.payable) return { payment_id: payment.payment_id, payable: false, reason: payment.reason! };
  const token = signEmbedToken(embedSecret(deps), payment.payment_id, deps.now(), deps.config.embedTokenTtlMs);
  return { payment_id: payment.payment_id, payable: true, checkout_url: `${deps.config.embedBaseUrl}/embed/${payment.payment_id}?token=${token}` };
}

/** Whether `token` is a live embed token of the payment (the embed page's check; no database). */
export async function checkEmbedToken(
  deps: CoreDeps,
  _tx: Tx,
  _caller: PublicCaller,
  { paymentId, token }: { paymentId: string; token: string },
): Promise<boolean> {
  return verifyEmbedToken(embedSecret(deps), paymentId, token, deps.now());
}
