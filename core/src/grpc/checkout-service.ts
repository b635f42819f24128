import type { CheckoutServiceServer, GetHostedPaymentResponse } from "../../../proto/gen/paytami/v1/checkout.ts";
import { currencyCodec, methodTypeCodec, modeCodec, paymentStatusCodec } from "../../../proto/enums.ts";
import { PUBLIC } from "../domain/caller.ts";
import { checkEmbedToken, getCheckoutSession, getHostedPayment, resolveCheckout, type HostedPayment } from "../domain/checkout.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { withoutTransaction } from "../domain/unit-of-work.ts";
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
    challenge_pending: false,
    embed_origins: [],
  };
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
    submitCard: handle("SubmitCard", async () => { throw new Error("not implemented yet"); }),
    completeChallenge: handle("CompleteChallenge", async () => { throw new Error("not implemented yet"); }),
    startBankTransfer: handle("StartBankTransfer", async () => { throw new Error("not implemented yet"); }),
    cancelCheckout: handle("CancelCheckout", async () => { throw new Error("not implemented yet"); }),
  };
}
