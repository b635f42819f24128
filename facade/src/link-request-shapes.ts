import { z } from "zod";
import type { CreateLinkRequest, ListLinksRequest, PayLinkRequest } from "../../proto/gen/paytami/v1/link.ts";
import {
  customerField,
  emailText,
  limitParam,
  moneyText,
  nameText,
  parse,
  requires,
  startingAfterParam,
  text,
  urlText,
  type ProtoFields,
} from "./request-shapes.ts";

// Payment-link bodies and queries read into their proto requests (JSON types and unknown fields
// only; the core validates every value), as request-shapes.ts does for payments.

const strictBody = <T extends z.ZodRawShape>(fields: T) =>
  z.strictObject(fields, {
    error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "the body must be a JSON object"),
  });

export const payLinkBody = strictBody({
  amount: moneyText("Required by a variable-amount link (400 amount_required without), within its bounds; a fixed link's amount when given."),
  method_type: text.meta({ description: "How the customer pays.", examples: ["card", "bank_transfer"] }),
  success_url: urlText("Where the customer returns when the payment completes; the link's own, or a default, when omitted."),
  cancel_url: urlText("Where the customer returns when they cancel; the link's own, or a default, when omitted."),
  customer: customerField(
    z.strictObject({ email: emailText, name: nameText } satisfies ProtoFields<NonNullable<PayLinkRequest["customer"]>>, {
      error: "must be an object with optional string fields email and name",
    }),
  ),
} satisfies ProtoFields<PayLinkRequest, "link_id" | "idempotency_key" | "client_ip" | "malformed_request">).meta({
  id: "PayLinkRequest",
  ...requires("method_type"),
});

export const createLinkBody = strictBody({
  title: text.meta({ description: "Shown to customers on the link page." }),
  description: text.meta({ description: "Shown to customers on the link page." }),
  currency: text.meta({ description: "An enabled currency of the merchant.", examples: ["GTQ"] }),
  fixed_amount_minor: moneyText("A fixed link's amount; give either this or the variable bounds."),
  min_amount_minor: moneyText("A variable link's lower bound."),
  max_amount_minor: moneyText("A variable link's upper bound."),
  expires_at: text.meta({ description: "When the link stops accepting payments (ISO 8601); never when omitted.", override: { format: "date-time" } }),
  max_payments: z
    .number({ error: "must be an integer" })
    .int({ error: "must be an integer" })
    .optional()
    .meta({ description: "Succeeded payments after which the link is exhausted; no limit when omitted." }),
  success_url: urlText("Where customers return after paying; a default when omitted."),
  cancel_url: urlText("Where customers return when they cancel; a default when omitted."),
} satisfies ProtoFields<CreateLinkRequest, "acting_for" | "idempotency_key" | "malformed_request">).meta({
  id: "CreateLinkRequest",
  ...requires("title", "currency"),
});

export const listLinksQuery = z.strictObject(
  {
    limit: limitParam(),
    starting_after: startingAfterParam("link"),
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
