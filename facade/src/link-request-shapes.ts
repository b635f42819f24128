import { z } from "zod";
import type { CreateLinkRequest, ListLinksRequest, PayLinkRequest } from "../../proto/gen/paytami/v1/link.ts";
import { int32, once, parse, text, type ProtoFields } from "./request-shapes.ts";

// Payment-link bodies and queries read into their proto requests (JSON types and unknown fields
// only; the core validates every value), as request-shapes.ts does for payments.

const strictBody = <T extends z.ZodRawShape>(fields: T) =>
  z.strictObject(fields, {
    error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "the body must be a JSON object"),
  });

const payLinkBody = strictBody({
  amount: text,
  method_type: text,
  success_url: text,
  cancel_url: text,
  customer: z
    .strictObject({ email: text, name: text } satisfies ProtoFields<NonNullable<PayLinkRequest["customer"]>>, {
      error: "must be an object with optional string fields email and name",
    })
    .optional(),
} satisfies ProtoFields<PayLinkRequest, "link_id" | "idempotency_key" | "client_ip" | "malformed_request">);

const createLinkBody = strictBody({
  title: text,
  description: text,
  currency: text,
  fixed_amount_minor: text,
  min_amount_minor: text,
  max_amount_minor: text,
  expires_at: text,
  max_payments: z.number({ error: "must be an integer" }).int({ error: "must be an integer" }).optional(),
  success_url: text,
  cancel_url: text,
} satisfies ProtoFields<CreateLinkRequest, "acting_for" | "idempotency_key" | "malformed_request">);

const listLinksQuery = z.strictObject(
  {
    limit: int32.optional(),
    starting_after: once.optional(),
  } satisfies ProtoFields<ListLinksRequest, "acting_for" | "malformed_request">,
  {
    error: (issue) => (issue.code === "unrecognized_keys" ? `unknown query parameter ${issue.keys.join(", ")}` : "invalid query"),
  },
);

export function payLinkRequest(body: unknown, linkId: string, idempotencyKey: string, clientIp: string): PayLinkRequest {
  return { link_id: linkId, idempotency_key: idempotencyKey, client_ip: clientIp, ...parse(payLinkBody, body) };
}

export function createLinkRequest(body: unknown, idempotencyKey: string): CreateLinkRequest {
  return { idempotency_key: idempotencyKey, ...parse(createLinkBody, body) };
}

export function listLinksRequest(query: unknown): ListLinksRequest {
  return parse(listLinksQuery, query);
}
