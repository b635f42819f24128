/**
 * What the hosted payment pages show, in the pages' own terms: no gRPC type reaches
 * the rendering, so the core's wire shape can change without touching a page.
 */
export interface HostedPayment {
  id: string;
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
}

export const RESOLVED_REASONS = ["already_paid", "failed", "canceled", "expired"] as const;
export type ResolvedReason = (typeof RESOLVED_REASONS)[number];
