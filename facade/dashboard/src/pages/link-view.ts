// How the link pages read a link object: its amount in words and its state's key in the messages.

export interface LinkAmounts {
  currency: string;
  amount_type: "fixed" | "variable";
  fixed_amount_minor: string | null;
  min_amount_minor: string | null;
  max_amount_minor: string | null;
}

/** "Q 150.00", or "Q 10.00 to Q 500.00" through `range` for a variable link. */
export function linkAmount(link: LinkAmounts, money: (minor: string, currency: string) => string, range: (min: string, max: string) => string): string {
  if (link.amount_type === "fixed" && link.fixed_amount_minor !== null) return money(link.fixed_amount_minor, link.currency);
  return range(money(link.min_amount_minor ?? "0", link.currency), money(link.max_amount_minor ?? "0", link.currency));
}

/** "payable", or why not (inactive before expired before exhausted, as the core decides it). */
export const linkState = (link: { payable: boolean; not_payable_reason: string | null }): string =>
  link.payable ? "payable" : (link.not_payable_reason ?? "inactive");

/** The link form's fields as the API names them: its validation messages start with one of these. */
export const LINK_FIELDS = [
  "title",
  "description",
  "currency",
  "fixed_amount_minor",
  "min_amount_minor",
  "max_amount_minor",
  "expires_at",
  "max_payments",
  "success_url",
  "cancel_url",
] as const;
export type LinkField = (typeof LINK_FIELDS)[number];

/**
 * The field a create failure is about: the core's messages name it first ("title must be 1 to 200
 * characters."); an unsupported currency is the currency's. Undefined for anything else.
 */
export function fieldOfError(code: string | undefined, message: string): LinkField | undefined {
  if (code === "currency_not_supported") return "currency";
  const first = /^([a-z_]+)\b/.exec(message)?.[1];
  return (LINK_FIELDS as readonly string[]).includes(first ?? "") ? (first as LinkField) : undefined;
}
