import { z } from "zod";
import type { Mode } from "../config.ts";
import { AMOUNT_SCHEMA, codePoints, CURRENCY_SCHEMA, customer, displayText, httpUrl, METHOD_SCHEMA, textField } from "./payment-input.ts";

const MAX_PAYMENTS_LIMIT = 2 ** 31 - 1;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function linkSchema(httpsOnly: boolean) {
  return z
    .object({
      title: displayText("a string").refine((t) => t.trim() !== "" && codePoints(t) <= 200, "must be 1 to 200 characters"),
      description: displayText("a string")
        .refine((t) => codePoints(t) <= 500, "must be at most 500 characters")
        .optional(),
      currency: CURRENCY_SCHEMA,
      fixed_amount_minor: AMOUNT_SCHEMA.optional(),
      min_amount_minor: AMOUNT_SCHEMA.optional(),
      max_amount_minor: AMOUNT_SCHEMA.optional(),
      expires_at: textField("an ISO 8601 date-time such as 2027-01-01T00:00:00Z")
        .refine((t) => ISO_INSTANT.test(t) && !Number.isNaN(Date.parse(t)), "must be an ISO 8601 date-time with a time zone, such as 2027-01-01T00:00:00Z")
        .optional(),
      max_payments: z
        .number({ error: "must be an integer" })
        .int("must be an integer")
        .min(1, "must be at least 1")
        .max(MAX_PAYMENTS_LIMIT, `must be at most ${MAX_PAYMENTS_LIMIT}`)
        .optional(),
      success_url: httpUrl(httpsOnly).optional(),
      cancel_url: httpUrl(httpsOnly).optional(),
    })
    .superRefine((link, ctx) => {
      const fixed = link.fixed_amount_minor !== undefined;
      const bounds = link.min_amount_minor !== undefined || link.max_amount_minor !== undefined;
      if (fixed && bounds) {
        ctx.addIssue({ code: "custom", path: ["fixed_amount_minor"], message: "cannot be combined with min_amount_minor or max_amount_minor" });
      } else if (!fixed && (link.min_amount_minor === undefined || link.max_amount_minor === undefined)) {
        ctx.addIssue({
          code: "custom",
          path: [bounds ? (link.min_amount_minor === undefined ? "min_amount_minor" : "max_amount_minor") : "fixed_amount_minor"],
          message: bounds ? "is required with the other bound" : "is required, or min_amount_minor and max_amount_minor for a variable amount",
        });
      } else if (!fixed && BigInt(link.min_amount_minor!) > BigInt(link.max_amount_minor!)) {
        ctx.addIssue({ code: "custom", path: ["min_amount_minor"], message: "must not be above max_amount_minor" });
      }
    });
}

const LINK_SCHEMAS: Record<Mode, ReturnType<typeof linkSchema>> = { test: linkSchema(false), live: linkSchema(true) };
export type LinkInput = z.infer<ReturnType<typeof linkSchema>>;

export function linkInputSchema(mode: Mode) {
  return LINK_SCHEMAS[mode];
}

function payLinkSchema(httpsOnly: boolean, fixed: boolean) {
  return z.object({
    // Fixed links take their own amount: one sent anyway is a mistake worth telling (DESIGN §4).
    amount: fixed ? z.undefined({ error: "must not be sent: this link has a fixed amount" }) : AMOUNT_SCHEMA.optional(),
    method_type: METHOD_SCHEMA,
    success_url: httpUrl(httpsOnly).optional(),
    cancel_url: httpUrl(httpsOnly).optional(),
    customer: customer.optional(),
  });
}

const PAY_SCHEMAS = {
  test: { fixed: payLinkSchema(false, true), variable: payLinkSchema(false, false) },
  live: { fixed: payLinkSchema(true, true), variable: payLinkSchema(true, false) },
} as const;

export type PayLinkInput = z.infer<ReturnType<typeof payLinkSchema>>;

export function payLinkInputSchema(mode: Mode, amountType: "fixed" | "variable") {
  return PAY_SCHEMAS[mode][amountType];
}

/** A link's mode and amount type: what its pay body's shape depends on. */
export type LinkKind = `${Mode}:${"fixed" | "variable"}`;

/**
 * The kinds of link whose pay body `input` is well-formed for, with the body as each parsed it: known
 * before the link is read (the rate limit counts the link by it), and then the link's own parse.
 *
 * One parse instead of four: the four schemas differ only in the amount (a fixed link's must be
 * absent) and the URLs (live ones https), so a body fits a kind iff it fits the loosest (test,
 * variable) and passes that kind's two extra rules, and every kind's parse is then the same.
 * link-input.test.ts checks this against each kind's own schema.
 */
export function payLinkKindsFitting(input: unknown): Map<LinkKind, PayLinkInput> {
  const fitting = new Map<LinkKind, PayLinkInput>();
  const parsed = PAY_SCHEMAS.test.variable.safeParse(input);
  if (!parsed.success) return fitting;
  const body = parsed.data;
  const fixed = body.amount === undefined;
  const live = [body.success_url, body.cancel_url].every((url) => url === undefined || new URL(url).protocol === "https:");
  fitting.set("test:variable", body);
  if (fixed) fitting.set("test:fixed", body);
  if (live) fitting.set("live:variable", body);
  if (fixed && live) fitting.set("live:fixed", body);
  return fitting;
}
