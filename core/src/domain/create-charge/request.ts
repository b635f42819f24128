import type { Charge, MerchantPolicy } from "../charge-policy.ts";
import type { ChargeOwner } from "./owner-kind.ts";

/** Everything a payment row needs besides its owner. */
export interface PaymentDraft {
  charge: Charge;
  description: string | null;
  customerEmail: string | null;
  customerName: string | null;
  successUrl: string;
  cancelUrl: string;
  linkId: string | null;
}

export interface CheckedCharge {
  draft: PaymentDraft;
  /** Fingerprint of the validated request, bound to the idempotency key. */
  fingerprint: string;
}

export interface ChargeRequest {
  owner: ChargeOwner;
  idempotencyKey: string;
  /**
   * Every check that follows authentication, in the order DESIGN §4 fixes,
   * for a merchant with `policy`; returns the priced draft or throws the
   * first refusal.
   */
  check: (policy: MerchantPolicy) => CheckedCharge;
  /** The owner's policy when the caller has just read it (a link's merchant), instead of the process's hint. */
  policy?: MerchantPolicy | undefined;
}
