import { currencyCodec, linkAmountTypeCodec, linkNotPayableReasonCodec, modeCodec } from "./enums.ts";
import type { GetPublicLinkResponse, PaymentLink } from "./gen/paytami/v1/link.ts";

type PublicFields = Pick<
  GetPublicLinkResponse,
  | "title"
  | "description"
  | "merchant_trade_name"
  | "currency"
  | "amount_type"
  | "fixed_amount_minor"
  | "min_amount_minor"
  | "max_amount_minor"
  | "payable"
  | "not_payable_reason"
>;

/**
 * The payment link public view (spec 2.2) from either link message, keys in contract order, `null`
 * where the spec says null: GET /v1/payment_links/{id} answers with exactly this. Deterministic.
 */
export function publicLinkJson(link: PublicFields) {
  return {
    title: link.title,
    description: link.description,
    merchant_trade_name: link.merchant_trade_name,
    currency: currencyCodec.toWire(link.currency),
    amount_type: linkAmountTypeCodec.toWire(link.amount_type),
    fixed_amount_minor: link.fixed_amount_minor ?? null,
    min_amount_minor: link.min_amount_minor ?? null,
    max_amount_minor: link.max_amount_minor ?? null,
    payable: link.payable,
    not_payable_reason: link.not_payable_reason === undefined ? null : linkNotPayableReasonCodec.toWire(link.not_payable_reason),
  };
}

/** The CLI's `links create` / `links deactivate` output (DESIGN §3): the public view plus "id". */
export function identifiedPublicLinkJson(link: PaymentLink) {
  return { id: link.id, ...publicLinkJson(link) };
}

/**
 * The merchant's link object (POST/GET /v1/payment_links, tRPC, `links list|show`): id, the public
 * view, then what only the merchant sees. Deterministic, so an idempotent replay is byte-identical.
 */
export function linkJson(link: PaymentLink) {
  return {
    id: link.id,
    ...publicLinkJson(link),
    mode: modeCodec.toWire(link.mode),
    active: link.active,
    expires_at: link.expires_at ?? null,
    max_payments: link.max_payments ?? null,
    succeeded_payments: link.succeeded_payments,
    success_url: link.success_url ?? null,
    cancel_url: link.cancel_url ?? null,
    url: link.url,
    created_at: link.created_at,
  };
}

export type PublicLinkJson = ReturnType<typeof publicLinkJson>;
export type LinkJson = ReturnType<typeof linkJson>;
