import { currencyCodec, refundReasonCodec, refundStatusCodec } from "./enums.ts";
import type { Refund } from "./gen/paytami/v1/refund.ts";

/**
 * The public Refund object (spec 2.4, plus created_at) built from its gRPC message, keys in contract
 * order: the facade answers with it and the CLI prints it. Deterministic, so an idempotent replay of
 * the same stored refund is byte-identical.
 */
export function refundJson(refund: Refund) {
  return {
    id: refund.id,
    payment_id: refund.payment_id,
    amount: refund.amount,
    currency: currencyCodec.toWire(refund.currency),
    reason: refundReasonCodec.toWire(refund.reason),
    status: refundStatusCodec.toWire(refund.status),
    created_at: refund.created_at,
  };
}

export type RefundJson = ReturnType<typeof refundJson>;
