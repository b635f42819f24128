// The dashboard's payment filters, read once and applied the same way by the list (a page) and the
// CSV export (every matching payment): status, currency, method, a time range and a search.
import type { SelectQueryBuilder } from "kysely";
import { CURRENCIES, METHOD_TYPES, type MethodType } from "../config.ts";
import type { DB } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import { fail } from "./errors.ts";
import { isId } from "./ids.ts";
import type { PageCursor } from "./keyset-page.ts";
import { isPaymentStatus, PAYMENT_STATUSES, type PaymentStatus } from "./payment-states.ts";

/** The filters as the page (or the export's query string) sends them; every one optional. */
export interface PaymentFilterInput {
  status?: string | undefined;
  currency?: string | undefined;
  method?: string | undefined;
  /** ISO 8601 instant, inclusive. */
  created_from?: string | undefined;
  /** ISO 8601 instant, exclusive. */
  created_to?: string | undefined;
  /** A payment id (exact) or the start of a customer's e-mail (case-insensitive). */
  search?: string | undefined;
}

export interface PaymentFilters {
  status?: PaymentStatus;
  currency?: string;
  method?: MethodType;
  from?: Date;
  to?: Date;
  paymentId?: string;
  /** Lower-cased; matched as a prefix of lower(customer_email). */
  emailPrefix?: string;
  /** Only the payments made through this link (a link's page; not a filter the list takes). */
  linkId?: string;
}

const MAX_SEARCH_LENGTH = 254;
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:\d\d)$/;

function instant(field: string, text: string | undefined): Date | undefined {
  if (text === undefined || text === "") return undefined;
  const time = ISO_INSTANT.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(time)) fail("validation_error", `${field} must be an ISO 8601 time with its offset, such as 2026-11-01T00:00:00-06:00.`);
  return new Date(time);
}

/** Checks every filter (validation_error naming the first bad one) and reads it into its query form. */
export function parsePaymentFilters(input: PaymentFilterInput): PaymentFilters {
  const filters: PaymentFilters = {};
  if (input.status !== undefined && input.status !== "") {
    if (!isPaymentStatus(input.status)) fail("validation_error", `status must be one of ${PAYMENT_STATUSES.join(", ")}.`);
    filters.status = input.status as PaymentStatus;
  }
  if (input.currency !== undefined && input.currency !== "") {
    if (!(CURRENCIES as readonly string[]).includes(input.currency)) fail("validation_error", `currency must be one of ${CURRENCIES.join(", ")}.`);
    filters.currency = input.currency;
  }
  if (input.method !== undefined && input.method !== "") {
    if (!(METHOD_TYPES as readonly string[]).includes(input.method)) fail("validation_error", `method must be one of ${METHOD_TYPES.join(", ")}.`);
    filters.method = input.method as MethodType;
  }
  const from = instant("created_from", input.created_from);
  const to = instant("created_to", input.created_to);
  if (from) filters.from = from;
  if (to) filters.to = to;
  if (from && to && from.getTime() >= to.getTime()) fail("validation_error", "created_from must be before created_to.");
  const search = input.search?.trim() ?? "";
  if (search.length > MAX_SEARCH_LENGTH) fail("validation_error", `search must be at most ${MAX_SEARCH_LENGTH} characters.`);
  if (isId("pay", search)) filters.paymentId = search;
  else if (search !== "") filters.emailPrefix = search.toLowerCase();
  return filters;
}

/** `like` treats % and _ (and its escape) as wildcards: a search for "a_b@" means those characters. */
const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The caller's payments (merchant and mode always: nothing else is ever read), the filters, and the
 * keyset condition below `after`, newest first. The indexes behind it: payments_list_idx /
 * payments_list_status_idx (merchant, mode[, status], created_at desc, seq desc) walk the range in
 * order, payments_customer_email_idx answers a search by e-mail and payments_link_idx a link's payments (core/README.md "Dashboard views").
 */
export function filteredPayments<O>(
  q: SelectQueryBuilder<DB, "payments", O>,
  caller: MerchantCaller,
  f: PaymentFilters,
  after: PageCursor | undefined,
): SelectQueryBuilder<DB, "payments", O> {
  q = q.where("payments.merchant_id", "=", caller.merchantId).where("payments.mode", "=", caller.mode);
  if (f.status) q = q.where("payments.status", "=", f.status);
  if (f.currency) q = q.where("payments.currency", "=", f.currency);
  if (f.method) q = q.where("payments.method_type", "=", f.method);
  if (f.from) q = q.where("payments.created_at", ">=", f.from);
  if (f.to) q = q.where("payments.created_at", "<", f.to);
  if (f.paymentId) q = q.where("payments.id", "=", f.paymentId);
  if (f.linkId) q = q.where("payments.link_id", "=", f.linkId);
  if (f.emailPrefix)
    q = q.where("payments.customer_email", "is not", null).where((eb) => eb(eb.fn("lower", ["payments.customer_email"]), "like", likePrefix(f.emailPrefix!)));
  if (after) q = q.where((eb) => eb(eb.refTuple("payments.created_at", "payments.seq"), "<", eb.tuple(after.created_at, after.seq)));
  return q.orderBy("payments.created_at", "desc").orderBy("payments.seq", "desc");
}
