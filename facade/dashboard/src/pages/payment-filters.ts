// The payments list's filters as they live in the page's address (so a filtered list can be
// bookmarked, and going back from a payment returns to it), and as the list procedure and the CSV
// export take them: dates become the instants their days start at in the merchant's zone.
import { nextDay, zonedInstant } from "../format/zoned-time.ts";

export { PAYMENT_STATUSES } from "../../../../proto/payment-statuses.ts";
export const CURRENCIES = ["GTQ", "USD"] as const;
export const METHODS = ["card", "bank_transfer"] as const;

/** The address's parameters: `from` and `to` are calendar days (YYYY-MM-DD), `to` included. */
export const FILTER_PARAMS = ["status", "currency", "method", "from", "to", "search"] as const;
export type FilterParams = Partial<Record<(typeof FILTER_PARAMS)[number], string>>;

export function filtersFrom(params: URLSearchParams): FilterParams {
  const filters: FilterParams = {};
  for (const name of FILTER_PARAMS) {
    const value = params.get(name)?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

/** The filters as dashboard.payments.list and GET /dashboard/export/payments.csv name them. */
export interface PaymentFilterInput {
  status?: string;
  currency?: string;
  method?: string;
  created_from?: string;
  created_to?: string;
  search?: string;
}

export function filterInput(filters: FilterParams, timeZone: string): PaymentFilterInput {
  const input: PaymentFilterInput = {};
  if (filters.status) input.status = filters.status;
  if (filters.currency) input.currency = filters.currency;
  if (filters.method) input.method = filters.method;
  if (filters.search) input.search = filters.search;
  // A malformed day goes as it is: the core's validation_error then says what is wrong.
  if (filters.from) input.created_from = zonedInstant(filters.from, "00:00", timeZone) ?? filters.from;
  if (filters.to) input.created_to = /^\d{4}-\d{2}-\d{2}$/.test(filters.to) ? (zonedInstant(nextDay(filters.to), "00:00", timeZone) ?? filters.to) : filters.to;
  return input;
}

export const EXPORT_PATH = "/dashboard/export/payments.csv";

/** The CSV export of exactly the filtered list (every page of it). */
export function exportHref(input: PaymentFilterInput): string {
  const query = new URLSearchParams(Object.entries(input).filter(([, value]) => value !== undefined && value !== "")).toString();
  return query ? `${EXPORT_PATH}?${query}` : EXPORT_PATH;
}
