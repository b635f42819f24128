import { z } from "zod";
import { paymentStatusCodec } from "../../proto/enums.ts";
import type { CreatePaymentRequest, ListPaymentsRequest } from "../../proto/gen/paytami/v1/payment.ts";
import type { ListEventsRequest } from "../../proto/gen/paytami/v1/webhook.ts";
import { PublicError } from "./public-error.ts";

// The facade only turns HTTP text into the proto request: JSON types, unknown fields, query text to
// integers and enums. The fields are the proto's (same names as the public API) and the core
// validates every value and decides the order errors are reported in, so every caller gets the
// same rules.

/** A zod type for each field of proto message T except `Except`: a field added to the proto fails the typecheck here until the facade reads it. */
export type ProtoFields<T, Except extends keyof T = never> = { [K in Exclude<keyof T, Except>]-?: z.ZodType<T[K]> };

export const text = z.string({ error: "must be a string" }).optional();

const createPaymentFields = {
  amount: text,
  currency: text,
  method_type: text,
  success_url: text,
  cancel_url: text,
  description: text,
  customer: z
    .strictObject({ email: text, name: text } satisfies ProtoFields<NonNullable<CreatePaymentRequest["customer"]>>, {
      error: "must be an object with optional string fields email and name",
    })
    .optional(),
} satisfies ProtoFields<CreatePaymentRequest, "idempotency_key" | "malformed_request">;

const createPaymentBody = z.strictObject(createPaymentFields, {
  error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "the body must be a JSON object"),
});

export const once = z.string({ error: "must be given once" });
const INTEGER = /^-?(0|[1-9][0-9]*)$/;

export const int32 = once.transform((value, ctx) => {
  const n = INTEGER.test(value) ? Number(value) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= -(2 ** 31) && n < 2 ** 31) return n;
  ctx.issues.push({ code: "custom", message: "must be an integer", input: value });
  return z.NEVER;
});

const listPaymentsFields = {
  limit: int32.optional(),
  starting_after: once.optional(),
  // Unknown text becomes UNRECOGNIZED, which the core rejects in its place in the check order.
  status: once.transform(paymentStatusCodec.fromWire).optional(),
} satisfies ProtoFields<ListPaymentsRequest, "malformed_request">;

const listQuery = z.strictObject(listPaymentsFields, {
  error: (issue) => (issue.code === "unrecognized_keys" ? `unknown query parameter ${issue.keys.join(", ")}` : "invalid query"),
});

const listEventsQuery = z.strictObject(
  {
    limit: int32.optional(),
    starting_after: once.optional(),
    // The core checks the type against the event catalog.
    type: once.optional(),
  } satisfies ProtoFields<ListEventsRequest, "malformed_request">,
  {
    error: (issue) => (issue.code === "unrecognized_keys" ? `unknown query parameter ${issue.keys.join(", ")}` : "invalid query"),
  },
);

export function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join(".");
  throw new PublicError("validation_error", field ? `${field} ${issue.message}.` : `${issue.message[0]!.toUpperCase()}${issue.message.slice(1)}.`);
}

export function createPaymentRequest(body: unknown, idempotencyKey: string): CreatePaymentRequest {
  return { idempotency_key: idempotencyKey, ...parse(createPaymentBody, body) };
}

export function listPaymentsRequest(query: unknown): ListPaymentsRequest {
  return parse(listQuery, query);
}

export function listEventsRequest(query: unknown): ListEventsRequest {
  return parse(listEventsQuery, query);
}
