import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../../proto/error-catalog.ts";
import {
  currencyCodec,
  linkAmountTypeCodec,
  linkNotPayableReasonCodec,
  modeCodec,
  paymentStatusCodec,
  refundReasonCodec,
  refundStatusCodec,
} from "../../proto/enums.ts";
import type { LinkJson, PublicLinkJson } from "../../proto/link-json.ts";
import type { PaymentJson } from "../../proto/payment-json.ts";
import type { RefundJson } from "../../proto/refund-json.ts";

// The objects the facade answers with, as zod shapes: the OpenAPI document's response schemas
// (facade/src/openapi) and, through it, the test harness's response validator. Each shape is held to
// the renderer's return type (`satisfies z.ZodType<…Json>`), so a field added to a renderer fails the
// typecheck here until it is described. `.meta({ id })` makes a shape a named component.

/** DESIGN §4 "Money": an integer in the minor unit, as a string. */
export const MONEY_PATTERN = "^(0|[1-9][0-9]{0,15})$";
export const money = z
  .string()
  .regex(new RegExp(MONEY_PATTERN))
  .meta({
    id: "Money",
    description: "An amount in the currency's minor unit (centavos, cents) as a decimal integer string: never a JSON number, no sign, no decimals.",
    examples: ["15000"],
  });

/** `<prefix>_` + 24 lowercase hex characters (DESIGN §4 "Identifiers"). */
export const publicId = (prefix: string, description: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}_[0-9a-f]{24}$`))
    .meta({ description, examples: [`${prefix}_${"0123456789abcdef01234567"}`] });

export const timestamp = z.iso
  .datetime()
  .meta({ id: "Timestamp", description: "ISO 8601, UTC, millisecond precision.", examples: ["2026-11-21T10:00:00.123Z"] });
const url = z.url();

export const currency = z.enum(currencyCodec.wireNames).meta({ id: "Currency", description: "ISO 4217 code." });
export const paymentStatus = z.enum(paymentStatusCodec.wireNames).meta({ id: "PaymentStatus", description: "The payment's state (spec 3.1)." });

export const paymentShape = z
  .strictObject({
    id: publicId("pay", "The payment's public id."),
    status: paymentStatus,
    currency,
    amount: money,
    service_fee: money,
    net_amount: money,
    description: z.string().optional().meta({ description: "Present only when sent at creation." }),
    checkout_url: url.meta({ description: "The payment page on Paytami's domain: redirect the customer here. Stable." }),
    created_at: timestamp,
  })
  .meta({ id: "Payment", description: "A charge (spec 2.1)." }) satisfies z.ZodType<PaymentJson>;

const nullableMoney = money.nullable();

const publicLinkFields = {
  title: z.string(),
  description: z.string(),
  merchant_trade_name: z.string(),
  currency,
  amount_type: z
    .enum(linkAmountTypeCodec.wireNames)
    .meta({ description: "fixed: the link sets the amount; variable: the customer types it within the bounds." }),
  fixed_amount_minor: nullableMoney.meta({ description: "Set when amount_type is fixed, null otherwise." }),
  min_amount_minor: nullableMoney.meta({ description: "Lower bound of a variable link, null otherwise." }),
  max_amount_minor: nullableMoney.meta({ description: "Upper bound of a variable link, null otherwise." }),
  payable: z.boolean(),
  not_payable_reason: z.enum(linkNotPayableReasonCodec.wireNames).nullable().meta({ description: "Why payable is false; null when payable." }),
};

export const publicLinkShape = z
  .strictObject(publicLinkFields)
  .meta({ id: "PaymentLinkPublicView", description: "What anyone holding the link id may read (spec 2.2)." }) satisfies z.ZodType<PublicLinkJson>;

export const linkShape = z
  .strictObject({
    id: publicId("link", "The link's public id."),
    ...publicLinkFields,
    mode: z.enum(modeCodec.wireNames),
    active: z.boolean(),
    expires_at: timestamp.nullable(),
    max_payments: z.int().nullable().meta({ description: "Succeeded payments after which the link is exhausted; null: no limit." }),
    succeeded_payments: z.int(),
    success_url: url.nullable(),
    cancel_url: url.nullable(),
    url: url.meta({ description: "The hosted link page to share with customers." }),
    created_at: timestamp,
  })
  .meta({
    id: "PaymentLink",
    description: "A payment link as its merchant sees it: the public view plus what only the merchant sees.",
  }) satisfies z.ZodType<LinkJson>;

export const refundShape = z
  .strictObject({
    id: publicId("refund", "The refund's public id."),
    payment_id: publicId("pay", "The refunded payment."),
    amount: money,
    currency,
    reason: z.enum(refundReasonCodec.wireNames),
    status: z.enum(refundStatusCodec.wireNames),
    created_at: timestamp,
  })
  .meta({ id: "Refund", description: "A refund of part or all of a payment (spec 2.4)." }) satisfies z.ZodType<RefundJson>;

export const checkoutSessionShape = z
  .union([
    z.strictObject({
      payment_id: publicId("pay", "The payment."),
      payable: z.literal(true),
      checkout_url: url.meta({ description: "For the embed only; never display it." }),
    }),
    z.strictObject({
      payment_id: publicId("pay", "The payment."),
      payable: z.literal(false),
      reason: z.enum(["already_paid", "failed", "canceled", "expired"]),
    }),
  ])
  .meta({ id: "CheckoutSession", description: "Whether the payment accepts another attempt (spec 2.3)." });

/** The error body (spec 7) with `codes` as the only codes it may carry. */
export const errorBodyOf = (codes: readonly [ErrorCode, ...ErrorCode[]]) =>
  z
    .strictObject({
      error: z.strictObject({
        code: z.enum(codes).meta({ description: "The catalog code (spec 7): program logic reads this." }),
        message: z.string().meta({ description: "Human-readable; its wording may change." }),
      }),
    })
    .meta({ description: "Every error's body (spec 7)." });

/** Any error body (the `Error` component): what an unknown route or a wrong method answers, and what every error response narrows. */
export const errorShape = errorBodyOf(ERROR_CODES).meta({ id: "Error" });

/** An error response's body: an `Error` whose code is one of `codes` (allOf, so generated clients keep one named Error type). */
export const errorResponseOf = (codes: readonly [ErrorCode, ...ErrorCode[]]) => z.intersection(errorShape, errorBodyOf(codes));

/** A keyset page (DESIGN §4 "Listing"): pass the last item's id as starting_after for the next one. */
export const pageOf = (item: z.ZodType, id: string) =>
  z
    .strictObject({ data: z.array(item), has_more: z.boolean().meta({ description: "Whether another page follows this one." }) })
    .meta({ id, description: `A page of ${id.replace(/Page$/, "")} objects, newest first.` });

/** The OpenAPI document is any JSON object; its own schema is the meta-schema of OpenAPI 3.1. */
export const openApiDocumentShape = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }).meta({ id: "OpenApiDocument" });
