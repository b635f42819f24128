import type { CoreDeps } from "../domain/deps.ts";
import { authenticate } from "../domain/api-keys.ts";
import { createPayment } from "../domain/create-payment.ts";
import { getPayment, listPayments } from "../domain/payments.ts";
import type { PaymentView } from "../domain/payment-view.ts";
import type { Customer, Payment, PaymentServiceServer } from "../../../proto/gen/paytami/v1/payment.ts";
import { unary } from "./unary.ts";

export function toPaymentMessage(view: PaymentView): Payment {
  return {
    id: view.id, status: view.status, currency: view.currency, amount: view.amount, serviceFee: view.service_fee,
    netAmount: view.net_amount, description: view.description, checkoutUrl: view.checkout_url, createdAt: view.created_at,
  };
}

function customerBody(customer: Customer | undefined) {
  return customer === undefined ? undefined : { email: customer.email, name: customer.name };
}

export function paymentService(deps: CoreDeps): PaymentServiceServer {
  const handle = <Req, Res>(method: string, fn: Parameters<typeof unary<Req, Res>>[2]) => unary<Req, Res>(deps.log, method, fn);
  return {
    authenticate: handle("Authenticate", async (_request, ctx) => {
      const principal = await authenticate(deps, ctx.authorization);
      return { merchantId: principal.merchantId, mode: principal.mode };
    }),
    createPayment: handle("CreatePayment", async (request, ctx) => {
      const result = await createPayment(deps, {
        authorization: ctx.authorization,
        idempotencyKey: request.idempotencyKey === "" ? undefined : request.idempotencyKey,
        body: {
          amount: request.amount, currency: request.currency, method_type: request.methodType, success_url: request.successUrl,
          cancel_url: request.cancelUrl, description: request.description, customer: customerBody(request.customer),
        },
        malformed: request.malformedRequest,
      });
      return { payment: toPaymentMessage(JSON.parse(result.response) as PaymentView), replayed: result.replayed };
    }),
    getPayment: handle("GetPayment", async (request, ctx) => ({
      payment: toPaymentMessage(await getPayment(deps, ctx.authorization, request.id)),
    })),
    listPayments: handle("ListPayments", async (request, ctx) => {
      const page = await listPayments(deps, ctx.authorization, {
        limit: request.limit, starting_after: request.startingAfter, status: request.status, malformed: request.malformedRequest,
      });
      return { data: page.data.map(toPaymentMessage), hasMore: page.has_more };
    }),
  };
}
