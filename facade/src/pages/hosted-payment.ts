import type { PageBrand } from "./branding.ts";
import { returnUrl } from "./return-url.ts";

/**
 * What the hosted payment pages show, in the pages' own terms: no gRPC type reaches
 * the rendering, so the core's wire shape can change without touching a page.
 */
export interface HostedPayment {
  id: string;
  /** The public status string (spec 2.1), e.g. "created", "processing", "captured". */
  status: string;
  /** Minor units as a decimal string. */
  amount: string;
  currency: string;
  description?: string | undefined;
  merchantName: string;
  method: "card" | "bank_transfer";
  mode: "test" | "live";
  successUrl: string;
  cancelUrl: string;
  /** Why the payment accepts no further attempt; absent while it is payable. */
  resolved?: ResolvedReason | undefined;
  /** Brand and last four digits once a card reached the processor; never more of the number. */
  card?: { brand: string; last4: string } | undefined;
  /** Where to send the money, once the customer chose to pay by bank transfer. */
  bankTransfer?: BankTransferDetails | undefined;
  /** The card asked for a challenge step the customer has not completed yet. */
  challengePending: boolean;
  /** The https origins the merchant registered for its embedded checkout (live mode frames and postMessage). */
  embedOrigins: string[];
  /** The merchant's logo and colours. */
  brand: PageBrand;
}

export interface BankTransferDetails {
  bankName: string;
  accountName: string;
  accountNumber: string;
  reference: string;
}

export const RESOLVED_REASONS = ["already_paid", "failed", "canceled", "expired"] as const;
export type ResolvedReason = (typeof RESOLVED_REASONS)[number];

/** Which step of the checkout the payment is at: decides the page a GET shows. */
export type CheckoutStep = "resolved" | "challenge" | "bank_transfer_waiting" | "bank_transfer_start" | "card_form" | "processing";

export function checkoutStep(payment: HostedPayment): CheckoutStep {
  if (payment.resolved) return "resolved";
  if (payment.challengePending) return "challenge";
  if (payment.bankTransfer) return "bank_transfer_waiting";
  if (payment.status !== "created") return "processing";
  return payment.method === "bank_transfer" ? "bank_transfer_start" : "card_form";
}

/** Where the customer goes back to the shop, with payment_id: success_url once paid, cancel_url for anything else. */
export function shopReturnUrl(payment: HostedPayment, reason: ResolvedReason | undefined = payment.resolved): string {
  return returnUrl(reason === "already_paid" ? payment.successUrl : payment.cancelUrl, payment.id);
}
