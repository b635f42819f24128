import type { CoreDeps } from "../domain/deps.ts";
import { createPayment } from "../domain/create-payment.ts";
import { cancelPayment } from "../domain/cancel-payment.ts";
import { getPayment, listPayments } from "../domain/payments.ts";
import { withoutTransaction } from "../domain/unit-of-work.ts";
import type { PaymentView } from "../domain/payment-view.ts";
import { currencyCodec, modeCodec, paymentStatusCodec } from "../../../proto/enums.ts";
import type { Payment, PaymentServiceServer } from "../../../proto/gen/paytami/v1/payment.ts";
import { merchantFromApiKey, presentedApiKey } from "./caller.ts";
import { unary } from "./unary.ts";

/** The one mapping from the domain's Payment to its gRPC message (the facade and CLI map it on to JSON). */
export function toPaymentMessage(view: PaymentView): Payment {
  return {
    ...view,
    status: paymentStatusCodec.fromWire(view.status),
    currency: currencyCodec.fromWire(view.currency),
  };
}

export function paymentService(deps: CoreDeps): PaymentServiceServer {
  const handle = <Req, Res>(method: string, fn: Parameters<typeof unary<Req, Res>>[2]) => unary<Req, Res>(deps, method, fn);
  return {
    authenticate: handle("Authenticate", async (_request, ctx) => {
      const caller = await merchantFromApiKey(deps, ctx);
      return { merchant_id: caller.merchantId, mode: modeCodec.fromWire(caller.mode) };
    }),
    createPayment: handle("CreatePayment", async (request, ctx) => {
      // The request's fields are the public body's: the domain's input schema reads them as they are.
      const { idempotency_key, malformed_request, ...input } = request;
      // The key's owner is resolved inside the creation statement (one round trip), so it goes in as presented.
      const result = await withoutTransaction(deps, (tx) => createPayment(deps, tx, presentedApiKey(ctx), {
        idempotencyKey: idempotency_key === "" ? undefined : idempotency_key,
        input,
        malformed: malformed_request,
      }));
      return { payment: toPaymentMessage(result.value), replayed: result.replayed };
    }),
    getPayment: handle("GetPayment", async (request, ctx) => {
      const caller = await merchantFromApiKey(deps, ctx);
      return { payment: toPaymentMessage(await withoutTransaction(deps, (tx) => getPayment(deps, tx, caller, request.id))) };
    }),
    listPayments: handle("ListPayments", async (request, ctx) => {
      const caller = await merchantFromApiKey(deps, ctx);
      const page = await withoutTransaction(deps, (tx) => listPayments(deps, tx, caller, {
        limit: request.limit,
        starting_after: request.starting_after,
        status: request.status === undefined ? undefined : paymentStatusCodec.requestText(request.status),
        malformed: request.malformed_request,
      }));
      return { data: page.data.map(toPaymentMessage), has_more: page.has_more };
    }),
    cancelPayment: handle("CancelPayment", async (request, ctx) => {
      const caller = await merchantFromApiKey(deps, ctx);
      // Its own short transaction (an expiry found on the way is kept even though the cancel is refused).
      const result = await withoutTransaction(deps, (tx) => cancelPayment(deps, tx, caller, { id: request.id, idempotencyKey: request.idempotency_key }));
      return { payment: toPaymentMessage(result.value), replayed: result.replayed };
    }),
  };
}
