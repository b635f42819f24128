import { currencyCodec, paymentStatusCodec } from "./enums.ts";
import type { Payment } from "./gen/paytami/v1/payment.ts";

/**
 * The public Payment object (spec 2.1) built from its gRPC message, keys in
 * contract order: the facade answers with it and the CLI prints it. Deterministic,
 * so an idempotent replay of the same stored payment is byte-identical.
 */
export function paymentJson(payment: Payment) {
  return {
    id: payment.id,
    status: paymentStatusCodec.toWire(payment.status),
    currency: currencyCodec.toWire(payment.currency),
    amount: payment.amount,
    service_fee: payment.service_fee,
    net_amount: payment.net_amount,
    ...(payment.description !== undefined ? { description: payment.description } : {}),
    checkout_url: payment.checkout_url,
    created_at: payment.created_at,
  };
}

export type PaymentJson = ReturnType<typeof paymentJson>;
