import { z } from "zod";
import type { Mode } from "../config.ts";
import { DomainError } from "./errors.ts";

const AMOUNT = /^(0|[1-9][0-9]{0,15})$/;
export const codePoints = (text: string) => [...text].length;

const required = (what: string) => ({
  error: (issue: { input: unknown }) => (issue.input === undefined ? "is required" : `must be ${what}`),
});

// Every free-text field: PostgreSQL text cannot hold U+0000, so it is refused
// here (a validation_error for gRPC callers too) rather than failing the insert.
export const textField = (what: string) => z.string(required(what)).refine((t) => !t.includes("\0"), "must not contain NUL (U+0000)");

// Bidirectional controls (embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069, the marks
// U+200E/U+200F/U+061C) reorder the text around them on screen: a merchant or link name, or a
// description, holding one can show customers something other than what it says (a reversed word,
// an amount or reference that reads differently). Right-to-left scripts display correctly without
// them, so text people read as a name or a label refuses them rather than altering it.
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** A free-text field people read as a name, title or description (customers; merchants, for customer names). */
export const displayText = (what: string) =>
  textField(what).refine(
    (t) => !BIDI_CONTROL.test(t),
    "must not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C)",
  );

export function httpUrl(httpsOnly: boolean) {
  return textField("a URL string")
    .max(2048, "must be at most 2048 characters")
    .refine(
      (text) => {
        if (!URL.canParse(text)) return false;
        const { protocol, hostname } = new URL(text);
        return hostname !== "" && (protocol === "https:" || (!httpsOnly && protocol === "http:"));
      },
      httpsOnly ? "must be an absolute https URL (live mode)" : "must be an absolute http or https URL",
    );
}

const description = displayText("a string").refine((t) => codePoints(t) <= 500, "must be at most 500 characters");
export const customer = z.object(
  {
    email: textField("a string").pipe(z.email("must be an e-mail address").max(254, "must be at most 254 characters")).optional(),
    name: displayText("a string")
      .refine((t) => codePoints(t) <= 200, "must be at most 200 characters")
      .optional(),
  },
  required("an object"),
);

export const AMOUNT_SCHEMA = z
  .string(required("a string"))
  .regex(AMOUNT, "must be a string holding an integer in minor units (no sign, decimals or leading zeros, at most 16 digits)");
export const CURRENCY_SCHEMA = z.string(required("a string")).regex(/^[A-Z]{3}$/, "must be an uppercase three-letter currency code");
export const METHOD_SCHEMA = z.enum(["card", "bank_transfer"], required("card or bank_transfer"));

function paymentSchema(httpsOnly: boolean) {
  return z.object({
    amount: AMOUNT_SCHEMA,
    currency: CURRENCY_SCHEMA,
    method_type: METHOD_SCHEMA,
    success_url: httpUrl(httpsOnly),
    cancel_url: httpUrl(httpsOnly),
    description: description.optional(),
    customer: customer.optional(),
  });
}

const SCHEMAS: Record<Mode, ReturnType<typeof paymentSchema>> = { test: paymentSchema(false), live: paymentSchema(true) };

export type PaymentInput = z.infer<ReturnType<typeof paymentSchema>>;

/** Parses with `schema` or fails with a validation_error naming the first offending field. */
export function parseOrFail<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join(".");
  throw new DomainError("validation_error", field ? `${field} ${issue.message}.` : `${issue.message}.`);
}

export function parsePaymentInput(mode: Mode, input: unknown): PaymentInput {
  return parseOrFail(SCHEMAS[mode], input);
}
