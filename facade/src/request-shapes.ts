import { z } from "zod";
import { paymentStatusCodec } from "../../proto/enums.ts";
import type { CreatePaymentRequest, ListPaymentsRequest } from "../../proto/gen/paytami/v1/payment.ts";
import type { ListEventsRequest } from "../../proto/gen/paytami/v1/webhook.ts";
import { EVENT_TYPES } from "../../proto/event-catalog.ts";
import { PublicError } from "./public-error.ts";
import { MONEY_PATTERN } from "./response-shapes.ts";

// The facade only turns HTTP text into the proto request: JSON types, unknown fields, query text to
// integers and enums. The fields are the proto's (same names as the public API) and the core
// validates every value and decides the order errors are reported in, so every caller gets the
// same rules.

/** A zod type for each field of proto message T except `Except`: a field added to the proto fails the typecheck here until the facade reads it. */
export type ProtoFields<T, Except extends keyof T = never> = { [K in Exclude<keyof T, Except>]-?: z.ZodType<T[K]> };

export const text = z.string({ error: "must be a string" }).optional();

// `.meta()` below only describes the contract in the OpenAPI document (facade/src/openapi): which
// fields the core requires and what their values look like. It changes nothing the facade accepts.

/** The fields the core requires of a body it reads through this shape (documentation only, see above). */
export const requires = (...fields: string[]) => ({ override: { required: fields } });
/** A text field holding money in minor units, as the core checks it. */
export const moneyText = (description: string) => text.meta({ description, override: { pattern: MONEY_PATTERN } });
/** The optional customer object of a payment request. */
export const customerField = <T extends z.ZodType>(shape: T) =>
  shape.optional().meta({ description: "Optional details of the customer, shown to the merchant." });
export const emailText = text.meta({ description: "The customer's e-mail address." });
export const nameText = text.meta({ description: "The customer's name, up to 200 characters." });
export const urlText = (description: string) => text.meta({ description, override: { format: "uri", maxLength: 2048 } });
/** A `limit` query parameter: a page of 1 to 100, default 25. */
export const limitParam = () =>
  int32.optional().meta({ description: "Page size, 1 to 100.", override: { type: "string", pattern: "^[0-9]+$", default: "25" } });
export const startingAfterParam = (what: string) =>
  once.optional().meta({ description: `The id of the last ${what} of the previous page; returns the page after it.` });

const createPaymentFields = {
  amount: moneyText("The amount to charge in the currency's minor unit, within the currency's limits."),
  currency: text.meta({ description: "An enabled currency of the merchant.", examples: ["GTQ", "USD"] }),
  method_type: text.meta({ description: "How the customer pays; bank_transfer is GTQ only.", examples: ["card", "bank_transfer"] }),
  success_url: urlText("Where the customer returns when the payment completes (absolute http(s); https in live mode)."),
  cancel_url: urlText("Where the customer returns when they cancel or the payment fails."),
  description: text.meta({ description: "Up to 500 characters, shown to the customer at checkout." }),
  customer: customerField(
    z.strictObject({ email: emailText, name: nameText } satisfies ProtoFields<NonNullable<CreatePaymentRequest["customer"]>>, {
      error: "must be an object with optional string fields email and name",
    }),
  ),
} satisfies ProtoFields<CreatePaymentRequest, "idempotency_key" | "malformed_request" | "json_only">;

export const createPaymentBody = z
  .strictObject(createPaymentFields, {
    error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "the body must be a JSON object"),
  })
  .meta({ id: "CreatePaymentRequest", ...requires("amount", "currency", "method_type", "success_url", "cancel_url") });

export const once = z.string({ error: "must be given once" });
const INTEGER = /^-?(0|[1-9][0-9]*)$/;

export const int32 = once.transform((value, ctx) => {
  const n = INTEGER.test(value) ? Number(value) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= -(2 ** 31) && n < 2 ** 31) return n;
  ctx.issues.push({ code: "custom", message: "must be an integer", input: value });
  return z.NEVER;
});

const listPaymentsFields = {
  limit: limitParam(),
  starting_after: startingAfterParam("payment"),
  // Unknown text becomes UNRECOGNIZED, which the core rejects in its place in the check order.
  status: once
    .transform(paymentStatusCodec.fromWire)
    .optional()
    .meta({ description: "Only payments in this state.", override: { type: "string", enum: [...paymentStatusCodec.wireNames] } }),
} satisfies ProtoFields<ListPaymentsRequest, "malformed_request">;

export const listPaymentsQuery = z.strictObject(listPaymentsFields, {
  error: (issue) => (issue.code === "unrecognized_keys" ? `unknown query parameter ${issue.keys.join(", ")}` : "invalid query"),
});

export const listEventsQuery = z.strictObject(
  {
    limit: limitParam(),
    starting_after: startingAfterParam("event"),
    // The core checks the type against the event catalog.
    type: once.optional().meta({ description: "Only events of this type.", override: { type: "string", enum: [...EVENT_TYPES] } }),
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
  return parse(listPaymentsQuery, query);
}

export function listEventsRequest(query: unknown): ListEventsRequest {
  return parse(listEventsQuery, query);
}
