import type { CoreDeps } from "../domain/deps.ts";
import { createPayment } from "../domain/create-payment.ts";
import { getPayment, listPayments } from "../domain/payments.ts";
import { withoutTransaction } from "../domain/unit-of-work.ts";
import type { PaymentView } from "../domain/payment-view.ts";
import type { Customer, Payment, PaymentServiceServer } from "../../../proto/gen/paytami/v1/payment.ts";
import { merchantFromApiKey, presentedApiKey } from "./caller.ts";
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
      const caller = await merchantFromApiKey(deps, ctx);
      return { merchantId: caller.merchantId, mode: caller.mode };
    }),
    createPayment: handle("CreatePayment", async (request, ctx) => {
      // The key's owner is resolved inside the creation statement (one round trip), so it goes in as presented.
      const result = await withoutTransaction(deps, (tx) => createPayment(deps, tx, presentedApiKey(ctx), {
        idempotencyKey: request.idempotencyKey === "" ? undefined : request.idempotencyKey,
        input: {
          amount: request.amount, currency: request.currency, method_type: request.methodType, success_url: request.successUrl,
          cancel_url: request.cancelUrl, description: request.description, customer: customerBody(request.customer),
        },
        malformed: request.malformedRequest,
      }));
      return { payment: toPaymentMessage(JSON.parse(result.response) as PaymentView), replayed: result.replayed };
    }),
    getPayment: handle("GetPayment", async (request, ctx) => {
      const caller = await merchantFromApiKey(deps, ctx);
      return { payment: toPaymentMessage(await withoutTransaction(deps, (tx) => getPayment(deps, tx, caller, request.id))) };
    }),
    listPayments: handle("ListPayments", async (request, ctx) => {
      const caller = await merchantFromApiKey(deps, ctx);
      const page = await withoutTransaction(deps, (tx) => listPayments(deps, tx, caller, {
        limit: request.limit, starting_after: request.startingAfter, status: request.status, malformed: request.malformedRequest,
      }));
      return { data: page.data.map(toPaymentMessage), hasMore: page.has_more };
    }),
  };
}
