import { z } from "zod";
import type { CreatePaymentRequest, ListPaymentsRequest } from "../../proto/gen/paytami/v1/payment.ts";
import { PublicError } from "./public-error.ts";

// The facade checks only JSON types and field names; the core validates values
// (formats, limits, currencies) and decides the order errors are reported in,
// so every caller gets the same rules.

const text = z.string({ error: "must be a string" }).optional();

const createPaymentBody = z.strictObject({
  amount: text,
  currency: text,
  method_type: text,
  success_url: text,
  cancel_url: text,
  description: text,
  customer: z.strictObject({ email: text, name: text }, { error: "must be an object with optional string fields email and name" }).optional(),
}, { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "the body must be a JSON object") });

const listQuery = z.strictObject({
  limit: z.string({ error: "must be given once" }).optional(),
  starting_after: z.string({ error: "must be given once" }).optional(),
  status: z.string({ error: "must be given once" }).optional(),
}, { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown query parameter ${issue.keys.join(", ")}` : "invalid query") });

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join(".");
  throw new PublicError("validation_error", field ? `${field} ${issue.message}.` : `${issue.message[0]!.toUpperCase()}${issue.message.slice(1)}.`);
}

export function createPaymentRequest(body: unknown, idempotencyKey: string): CreatePaymentRequest {
  const b = parse(createPaymentBody, body);
  return {
    idempotencyKey,
    amount: b.amount, currency: b.currency, methodType: b.method_type, successUrl: b.success_url,
    cancelUrl: b.cancel_url, description: b.description, customer: b.customer && { email: b.customer.email, name: b.customer.name },
  };
}

export function listPaymentsRequest(query: unknown): ListPaymentsRequest {
  const q = parse(listQuery, query);
  return { limit: q.limit, startingAfter: q.starting_after, status: q.status };
}
