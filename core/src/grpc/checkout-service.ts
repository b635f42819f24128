import type { CheckoutServiceServer } from "../../../proto/gen/paytami/v1/checkout.ts";
import { checkEmbedToken, getCheckoutSession, getHostedPayment, resolveCheckout } from "../domain/checkout.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { inTransaction } from "../domain/unit-of-work.ts";
import { unary } from "./unary.ts";

export function checkoutService(deps: CoreDeps): CheckoutServiceServer {
  const handle = <Req, Res>(method: string, fn: Parameters<typeof unary<Req, Res>>[2]) => unary<Req, Res>(deps.log, method, fn);
  return {
    resolveCheckout: handle("ResolveCheckout", async (request) => ({
      paymentPageUrl: await inTransaction(deps, (tx) => resolveCheckout(deps, tx, request.paymentId)),
    })),
    getCheckoutSession: handle("GetCheckoutSession", async (request) => {
      const session = await inTransaction(deps, (tx) => getCheckoutSession(deps, tx, request.paymentId));
      return { paymentId: session.payment_id, payable: session.payable, checkoutUrl: session.checkout_url, reason: session.reason };
    }),
    getHostedPayment: handle("GetHostedPayment", async (request) => {
      const p = await inTransaction(deps, (tx) => getHostedPayment(deps, tx, request.paymentId));
      return {
        paymentId: p.payment_id, status: p.status, currency: p.currency, amount: p.amount, description: p.description ?? undefined,
        merchantTradeName: p.merchant_trade_name, methodType: p.method_type, payable: p.payable, reason: p.reason ?? undefined,
        successUrl: p.success_url, cancelUrl: p.cancel_url, mode: p.mode,
      };
    }),
    verifyEmbedToken: handle("VerifyEmbedToken", async (request) => ({
      valid: checkEmbedToken(deps, request.paymentId, request.token),
    })),
  };
}
