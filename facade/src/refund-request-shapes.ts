import { z } from "zod";
import type { CreateRefundRequest, ListRefundsRequest } from "../../proto/gen/paytami/v1/refund.ts";
import { limitParam, moneyText, once, parse, requires, startingAfterParam, text, type ProtoFields } from "./request-shapes.ts";
import { refundReasonCodec } from "../../proto/enums.ts";

// Refund bodies and queries read into their proto requests (JSON types and unknown fields only; the
// core validates every value), as request-shapes.ts does for payments.

export const createRefundBody = z
  .strictObject(
    {
      payment_id: text.meta({ description: "The payment to refund (pay_…)." }),
      amount: moneyText("How much to refund; the whole remaining amount when omitted."),
      reason: text.meta({ description: "Why the money goes back.", override: { enum: [...refundReasonCodec.wireNames] } }),
    } satisfies ProtoFields<CreateRefundRequest, "acting_for" | "idempotency_key" | "malformed_request">,
    {
      error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "the body must be a JSON object"),
    },
  )
  .meta({ id: "CreateRefundRequest", ...requires("payment_id") });

export const listRefundsQuery = z.strictObject(
  {
    limit: limitParam(),
    starting_after: startingAfterParam("refund"),
    payment_id: once.optional().meta({ description: "Only the refunds of this payment." }),
  } satisfies ProtoFields<ListRefundsRequest, "acting_for" | "malformed_request">,
  {
    error: (issue) => (issue.code === "unrecognized_keys" ? `unknown query parameter ${issue.keys.join(", ")}` : "invalid query"),
  },
);

export function createRefundRequest(body: unknown, idempotencyKey: string): CreateRefundRequest {
  return { idempotency_key: idempotencyKey, ...parse(createRefundBody, body) };
}

export function listRefundsRequest(query: unknown): ListRefundsRequest {
  return parse(listRefundsQuery, query);
}
