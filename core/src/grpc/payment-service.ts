import type { CoreDeps } from "../domain/deps.ts";
import { authenticate } from "../domain/api-keys.ts";
import { createPayment } from "../domain/create-payment.ts";
import { getPayment, listPayments } from "../domain/payments.ts";
import type { PaymentView } from "../domain/payment-view.ts";
import { currencyCodec, modeCodec, paymentStatusCodec } from "../../../proto/enums.ts";
import type { Payment, PaymentServiceServer } from "../../../proto/gen/paytami/v1/payment.ts";
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
      const principal = await authenticate(deps, ctx.authorization);
      return { merchant_id: principal.merchantId, mode: modeCodec.fromWire(principal.mode) };
    }),
    createPayment: handle("CreatePayment", async (request, ctx) => {
      // The request's fields are the public body's: the domain's input schema reads them as they are.
      const { idempotency_key, malformed_request, ...body } = request;
      const result = await createPayment(deps, {
        authorization: ctx.authorization,
        idempotencyKey: idempotency_key === "" ? undefined : idempotency_key,
        body,
        malformed: malformed_request,
      });
      return { payment: toPaymentMessage(JSON.parse(result.response) as PaymentView), replayed: result.replayed };
    }),
    getPayment: handle("GetPayment", async (request, ctx) => ({
      payment: toPaymentMessage(await getPayment(deps, ctx.authorization, request.id)),
    })),
    listPayments: handle("ListPayments", async (request, ctx) => {
      const page = await listPayments(deps, ctx.authorization, {
        limit: request.limit,
        starting_after: request.starting_after,
        status: request.status === undefined ? undefined : paymentStatusCodec.requestText(request.status),
        malformed: request.malformed_request,
      });
      return { data: page.data.map(toPaymentMessage), has_more: page.has_more };
    }),
  };
}
