import { CURRENCIES, type CoreConfig, type Currency, type MethodType } from "../config.ts";

/** The stored columns a link's views are built from, with its merchant's trade name and policy. */
export interface LinkRow {
  id: string;
  merchant_id: string;
  mode: string;
  title: string;
  description: string;
  currency: string;
  fixed_amount: string | null;
  min_amount: string | null;
  max_amount: string | null;
  expires_at: Date | null;
  max_payments: number | null;
  succeeded_payments: number;
  success_url: string | null;
  cancel_url: string | null;
  active: boolean;
  created_at: Date;
  trade_name: string;
  currencies: string[];
  methods: string[];
}

export const LINK_COLUMNS = [
  "links.id",
  "links.merchant_id",
  "links.mode",
  "links.title",
  "links.description",
  "links.currency",
  "links.fixed_amount",
  "links.min_amount",
  "links.max_amount",
  "links.expires_at",
  "links.max_payments",
  "links.succeeded_payments",
  "links.success_url",
  "links.cancel_url",
  "links.active",
  "links.created_at",
  "merchants.trade_name",
  "merchants.currencies",
  "merchants.methods",
] as const;

export type NotPayableReason = "inactive" | "expired" | "exhausted";

/** DESIGN §4: inactive before expired before exhausted (succeeded payments ≥ max_payments). */
export function linkNotPayableReason(link: Pick<LinkRow, "active" | "expires_at" | "max_payments" | "succeeded_payments">, now: Date): NotPayableReason | null {
  if (!link.active) return "inactive";
  if (link.expires_at !== null && link.expires_at.getTime() <= now.getTime()) return "expired";
  if (link.max_payments !== null && link.succeeded_payments >= link.max_payments) return "exhausted";
  return null;
}

/** The payment link public view (spec 2.2), keys in contract order. */
export interface PublicLinkFields {
  title: string;
  description: string;
  merchant_trade_name: string;
  currency: string;
  amount_type: "fixed" | "variable";
  fixed_amount_minor: string | null;
  min_amount_minor: string | null;
  max_amount_minor: string | null;
  payable: boolean;
  not_payable_reason: NotPayableReason | null;
}

/** What the customer's link page needs: the public view, plus what REST does not show. */
export interface PublicLink extends PublicLinkFields {
  id: string;
  methods: MethodType[];
  mode: string;
  expires_at: string | null;
}

/** The merchant's link object (REST, tRPC, CLI `links list|show`). */
export interface LinkView extends PublicLinkFields {
  id: string;
  mode: string;
  active: boolean;
  expires_at: string | null;
  max_payments: number | null;
  succeeded_payments: number;
  success_url: string | null;
  cancel_url: string | null;
  url: string;
  created_at: string;
}

function publicFields(link: LinkRow, now: Date): PublicLinkFields {
  const reason = linkNotPayableReason(link, now);
  return {
    title: link.title,
    description: link.description,
    merchant_trade_name: link.trade_name,
    currency: link.currency,
    amount_type: link.fixed_amount !== null ? "fixed" : "variable",
    fixed_amount_minor: link.fixed_amount === null ? null : String(link.fixed_amount),
    min_amount_minor: link.min_amount === null ? null : String(link.min_amount),
    max_amount_minor: link.max_amount === null ? null : String(link.max_amount),
    payable: reason === null,
    not_payable_reason: reason,
  };
}

/** The methods a customer may choose: those the link's currency takes and its merchant allows. */
export function linkMethods(config: Pick<CoreConfig, "currencies">, link: Pick<LinkRow, "currency" | "methods">): MethodType[] {
  if (!(CURRENCIES as readonly string[]).includes(link.currency)) return [];
  return config.currencies[link.currency as Currency].methods.filter((m) => link.methods.includes(m));
}

export function linkPageUrl(config: Pick<CoreConfig, "publicBaseUrl">, linkId: string): string {
  return `${config.publicBaseUrl}/l/${linkId}`;
}

export function toPublicLink(config: Pick<CoreConfig, "currencies">, link: LinkRow, now: Date): PublicLink {
  return {
    id: link.id,
    ...publicFields(link, now),
    methods: linkMethods(config, link),
    mode: link.mode,
    expires_at: link.expires_at?.toISOString() ?? null,
  };
}

export function toLinkView(config: Pick<CoreConfig, "publicBaseUrl">, link: LinkRow, now: Date): LinkView {
  return {
    id: link.id,
    ...publicFields(link, now),
    mode: link.mode,
    active: link.active,
    expires_at: link.expires_at?.toISOString() ?? null,
    max_payments: link.max_payments,
    succeeded_payments: link.succeeded_payments,
    success_url: link.success_url,
    cancel_url: link.cancel_url,
    url: linkPageUrl(config, link.id),
    created_at: link.created_at.toISOString(),
  };
}
