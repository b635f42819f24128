import { z } from "zod";
import type { CreateRefundRequest, ListRefundsRequest } from "../../proto/gen/paytami/v1/refund.ts";
import { int32, once, parse, text, type ProtoFields } from "./request-shapes.ts";

// Refund bodies and queries read into their proto requests (JSON types and unknown fields only; the
// core validates every value), as request-shapes.ts does for payments.

const createRefundBody = z.strictObject(
  {
    payment_id: text,
    amount: text,
    reason: text,
  } satisfies ProtoFields<CreateRefundRequest, "acting_for" | "idempotency_key" | "malformed_request">,
  {
    error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "the body must be a JSON object"),
  },
);

const listRefundsQuery = z.strictObject(
  {
    limit: int32.optional(),
    starting_after: once.optional(),
    payment_id: once.optional(),
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
