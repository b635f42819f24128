import type { Payment } from "./gen/paytami/v1/payment.ts";

/**
 * The public Payment object (spec 2.1) built from its gRPC message, keys in
 * contract order: the facade answers with it and the CLI prints it. Deterministic,
 * so an idempotent replay of the same stored payment is byte-identical.
 */
export function paymentJson(payment: Payment) {
  return {
    id: payment.id,
    status: payment.status,
    currency: payment.currency,
    amount: payment.amount,
    service_fee: payment.serviceFee,
    net_amount: payment.netAmount,
    ...(payment.description !== undefined ? { description: payment.description } : {}),
    checkout_url: payment.checkoutUrl,
    created_at: payment.createdAt,
  };
}
