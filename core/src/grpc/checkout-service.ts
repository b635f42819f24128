import {
  CheckoutNext,
  CheckoutServiceService,
  type CheckoutServiceServer,
  type CompleteChallengeRequest,
  type GetHostedPaymentResponse,
  type SubmitCardRequest,
  type VerifyEmbedTokenRequest,
} from "../../../proto/gen/paytami/v1/checkout.ts";
import { currencyCodec, methodTypeCodec, modeCodec, paymentStatusCodec } from "../../../proto/enums.ts";
import type { BankTransferStarted, CardInput, CheckoutOutcome } from "../domain/checkout-attempts.ts";
import type { CheckoutSession, HostedPayment } from "../domain/checkout.ts";
import type { CoreDeps } from "../domain/deps.ts";
import type { PageBranding } from "../domain/settings/page-branding.ts";
import type { PageBranding as PageBrandingMessage } from "../../../proto/gen/paytami/v1/branding.ts";
import { checkout } from "../operations/checkout.ts";
import { settings } from "../operations/settings.ts";
import { customer, customerAt } from "./caller.ts";
import { call, serviceOf } from "./method-table.ts";

/** Unset where the merchant chose nothing. */
export function brandingMessage(branding: PageBranding): PageBrandingMessage {
  return Object.fromEntries(Object.entries(branding).filter(([, value]) => value !== null));
}

function toHostedPaymentMessage(p: HostedPayment): GetHostedPaymentResponse {
  return {
    ...p,
    status: paymentStatusCodec.fromWire(p.status),
    currency: currencyCodec.fromWire(p.currency),
    method_type: methodTypeCodec.fromWire(p.method_type),
    mode: modeCodec.fromWire(p.mode),
    description: p.description ?? undefined,
    reason: p.reason ?? undefined,
    card_brand: p.card_brand ?? undefined,
    card_last4: p.card_last4 ?? undefined,
    bank_transfer: p.bank_transfer ?? undefined,
    branding: brandingMessage(p.branding),
  };
}

const NEXT = {
  redirect_success: CheckoutNext.CHECKOUT_NEXT_REDIRECT_SUCCESS,
  redirect_cancel: CheckoutNext.CHECKOUT_NEXT_REDIRECT_CANCEL,
  challenge: CheckoutNext.CHECKOUT_NEXT_CHALLENGE,
  wait: CheckoutNext.CHECKOUT_NEXT_WAIT,
} as const satisfies Record<CheckoutOutcome["next"], CheckoutNext>;

function toOutcomeMessage(o: CheckoutOutcome) {
  return { payment: toHostedPaymentMessage(o.payment), next: NEXT[o.next], card_brand: o.card?.brand ?? "", card_last4: o.card?.last4 ?? "" };
}

const byPaymentId = (request: { payment_id: string }) => request.payment_id;
const tokenQuery = (request: VerifyEmbedTokenRequest) => ({ paymentId: request.payment_id, token: request.token });
const NO_CARD: CardInput = { number: "", exp_month: 0, exp_year: 0, cvc: "", holder_name: "" };
const cardInput = ({ payment_id, card = NO_CARD }: SubmitCardRequest) => ({
  paymentId: payment_id,
  card: { number: card.number, exp_month: card.exp_month, exp_year: card.exp_year, cvc: card.cvc, holder_name: card.holder_name },
});
const challengeAnswer = (request: CompleteChallengeRequest) => ({ paymentId: request.payment_id, confirmed: request.confirmed });
const started = (s: BankTransferStarted) => ({ payment: toHostedPaymentMessage(s.payment), bank_transfer: s.bankTransfer });
const canceled = (o: CheckoutOutcome) => ({ payment: toHostedPaymentMessage(o.payment), next: NEXT[o.next] });

export function checkoutService(deps: CoreDeps): CheckoutServiceServer {
  return serviceOf(deps, CheckoutServiceService, {
    resolveCheckout: call(checkout.resolve, customer, byPaymentId, (url) => ({ payment_page_url: url })),
    getCheckoutSession: call(checkout.session, customer, byPaymentId, (session: CheckoutSession) => session),
    getHostedPayment: call(checkout.hostedPayment, customer, byPaymentId, toHostedPaymentMessage),
    verifyEmbedToken: call(checkout.verifyEmbedToken, customer, tokenQuery, (valid) => ({ valid })),
    // Attempts call the processor: no transaction around them (they open their own short ones).
    submitCard: call(
      checkout.submitCard,
      customerAt((request: SubmitCardRequest) => request.client_ip),
      cardInput,
      toOutcomeMessage,
    ),
    completeChallenge: call(checkout.completeChallenge, customer, challengeAnswer, toOutcomeMessage),
    startBankTransfer: call(checkout.startBankTransfer, customer, byPaymentId, started),
    cancelCheckout: call(checkout.cancel, customer, byPaymentId, canceled),
    getLogo: call(
      settings.logo,
      customer,
      (request: { sha256: string }) => request.sha256,
      (logo) => logo,
    ),
  });
}
