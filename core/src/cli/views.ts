// Public JSON shapes (spec §2) built from gRPC messages, with the spec's key order.
import type { Payment } from "../../../proto/gen/paytami/v1/payment.ts";

export function paymentView(payment: Payment): Record<string, unknown> {
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

export function describeObject(view: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(view).map((key) => key.length));
  return Object.entries(view)
    .map(([key, value]) => `  ${key.padEnd(width)}  ${value === null ? "-" : String(value)}`)
    .join("\n");
}
