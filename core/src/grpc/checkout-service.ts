import { CheckoutNext, type CheckoutServiceServer, type GetHostedPaymentResponse } from "../../../proto/gen/paytami/v1/checkout.ts";
import { currencyCodec, methodTypeCodec, modeCodec, paymentStatusCodec } from "../../../proto/enums.ts";
import { PUBLIC } from "../domain/caller.ts";
import { checkEmbedToken, getCheckoutSession, getHostedPayment, resolveCheckout, type HostedPayment } from "../domain/checkout.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { withoutTransaction } from "../domain/unit-of-work.ts";
import { cancelCheckout, completeChallenge, startBankTransfer, submitCard, type CheckoutOutcome } from "../domain/checkout-attempts.ts";
import { unary } from "./unary.ts";

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

export function checkoutService(deps: CoreDeps): CheckoutServiceServer {
  const handle = <Req, Res>(method: string, fn: Parameters<typeof unary<Req, Res>>[2]) => unary<Req, Res>(deps, method, fn);
  return {
    resolveCheckout: handle("ResolveCheckout", async (request) => ({
      payment_page_url: await withoutTransaction(deps, (tx) => resolveCheckout(deps, tx, PUBLIC, request.payment_id)),
    })),
    getCheckoutSession: handle("GetCheckoutSession", async (request) => withoutTransaction(deps, (tx) => getCheckoutSession(deps, tx, PUBLIC, request.payment_id))),
    getHostedPayment: handle("GetHostedPayment", async (request) =>
      toHostedPaymentMessage(await withoutTransaction(deps, (tx) => getHostedPayment(deps, tx, PUBLIC, request.payment_id)))),
    verifyEmbedToken: handle("VerifyEmbedToken", async (request) => ({
      valid: checkEmbedToken(deps, request.payment_id, request.token),
    })),
    // Attempts call the processor: no transaction around them (they open their own short ones).
    submitCard: handle("SubmitCard", async (request) => {
      const card = request.card ?? { number: "", exp_month: 0, exp_year: 0, cvc: "", holder_name: "" };
      const caller = { ...PUBLIC, clientIp: request.client_ip || undefined };
      return toOutcomeMessage(await withoutTransaction(deps, (tx) => submitCard(deps, tx, caller, request.payment_id, card)));
    }),
    completeChallenge: handle("CompleteChallenge", async (request) =>
      toOutcomeMessage(await withoutTransaction(deps, (tx) => completeChallenge(deps, tx, PUBLIC, request.payment_id, request.confirmed)))),
    startBankTransfer: handle("StartBankTransfer", async (request) => {
      const started = await withoutTransaction(deps, (tx) => startBankTransfer(deps, tx, PUBLIC, request.payment_id));
      return { payment: toHostedPaymentMessage(started.payment), bank_transfer: started.bankTransfer };
    }),
    cancelCheckout: handle("CancelCheckout", async (request) => {
      const { payment, next } = toOutcomeMessage(await withoutTransaction(deps, (tx) => cancelCheckout(deps, tx, PUBLIC, request.payment_id)));
      return { payment, next };
    }),
  };
}
