import { currencyCodec, modeCodec, paymentStatusCodec } from "../../../proto/enums.ts";
import { noInput } from "../operations/index.ts";
import {
  PaymentServiceService,
  type CancelPaymentRequest,
  type ListPaymentsRequest,
  type Payment,
  type PaymentServiceServer,
} from "../../../proto/gen/paytami/v1/payment.ts";
import type { MerchantCaller } from "../domain/caller.ts";
import type { CoreDeps } from "../domain/deps.ts";
import type { IdempotentResult } from "../domain/idempotency.ts";
import { payments } from "../operations/payments.ts";
import type { PaymentPage } from "../domain/payments.ts";
import { paymentJsonBytes, type PaymentView } from "../domain/payment-view.ts";
import { apiKey } from "./caller.ts";
import { call, serviceOf } from "./method-table.ts";
import { byId, idempotentCommand } from "./requests.ts";

/** The one mapping from the domain's Payment to its gRPC message (the facade and CLI map it on to JSON). */
export function toPaymentMessage(view: PaymentView): Payment {
  return {
    ...view,
    status: paymentStatusCodec.fromWire(view.status),
    currency: currencyCodec.fromWire(view.currency),
  };
}

/** A payment made, cancelled or replayed, as CreatePayment, CancelPayment and PayLink answer it. */
export const paymentAnswer = ({ value, replayed }: IdempotentResult<PaymentView>) => ({ payment: toPaymentMessage(value), replayed });
/**
 * CreatePayment's and GetPayment's answer also carries the JSON bytes the facade writes through; a
 * caller asking for `json_only` (the facade) gets only those, the Payment rendered once on its hot path.
 */
const createdAnswer = (result: IdempotentResult<PaymentView>, request: { json_only?: boolean | undefined }) =>
  request.json_only ? { replayed: result.replayed, json: paymentJsonBytes(result.value) } : { ...paymentAnswer(result), json: paymentJsonBytes(result.value) };
const paymentWithJson = (view: PaymentView, request: { json_only?: boolean | undefined }) =>
  request.json_only ? { json: paymentJsonBytes(view) } : { payment: toPaymentMessage(view), json: paymentJsonBytes(view) };
const merchantOf = (caller: MerchantCaller) => ({ merchant_id: caller.merchantId, mode: modeCodec.fromWire(caller.mode) });
const listQuery = (request: ListPaymentsRequest) => ({
  limit: request.limit,
  starting_after: request.starting_after,
  status: request.status === undefined ? undefined : paymentStatusCodec.requestText(request.status),
  malformed: request.malformed_request,
});
const paymentPage = (page: PaymentPage) => ({ data: page.data.map(toPaymentMessage), has_more: page.has_more });
const cancelCommand = (request: CancelPaymentRequest) => ({ id: request.id, idempotencyKey: request.idempotency_key });

export function paymentService(deps: CoreDeps): PaymentServiceServer {
  return serviceOf(deps, PaymentServiceService, {
    authenticate: call(payments.authenticate, apiKey, noInput, merchantOf),
    // The request's fields are the public body's; the key's owner is resolved inside the creation statement (one round trip).
    createPayment: call(payments.create, apiKey, idempotentCommand, createdAnswer),
    getPayment: call(payments.get, apiKey, byId, paymentWithJson),
    listPayments: call(payments.list, apiKey, listQuery, paymentPage),
    cancelPayment: call(payments.cancel, apiKey, cancelCommand, paymentAnswer),
  });
}
