// The dashboard's payments list: the REST listing's keyset pages (keyset-page.ts) over the
// dashboard's filters (payment-filters.ts), each row the public Payment object plus what a table row
// shows (method, customer, formatted amount).
import { formatMoney } from "../../../proto/format-money.ts";
import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { isId } from "./ids.ts";
import { keysetPage, parseLimit, type Page, type PageQuery } from "./keyset-page.ts";
import { filteredPayments, parsePaymentFilters, type PaymentFilterInput } from "./payment-filters.ts";
import { PAYMENT_VIEW_COLUMNS, toPaymentView, type PaymentRow, type PaymentView } from "./payment-view.ts";
import type { Tx } from "./unit-of-work.ts";

export interface PaymentListItem extends PaymentView {
  method_type: string;
  customer_email: string | null;
  customer_name: string | null;
  link_id: string | null;
  /** "Q 1,500.00" */
  amount_formatted: string;
}

export const PAYMENT_LIST_COLUMNS = [...PAYMENT_VIEW_COLUMNS, "method_type", "customer_email", "customer_name", "link_id"] as const;

export interface PaymentListRow extends PaymentRow {
  method_type: string;
  customer_email: string | null;
  customer_name: string | null;
  link_id: string | null;
}

export function toPaymentListItem(deps: Pick<CoreDeps, "config">, row: PaymentListRow): PaymentListItem {
  return {
    ...toPaymentView(deps.config, row),
    method_type: row.method_type,
    customer_email: row.customer_email,
    customer_name: row.customer_name,
    link_id: row.link_id,
    amount_formatted: formatMoney(row.amount, row.currency),
  };
}

/** The cursor of one of the caller's own payments (another merchant's or mode's is none). */
export async function ownPaymentCursor(tx: Tx, caller: MerchantCaller, id: string) {
  if (!isId("pay", id)) return undefined;
  return db(tx)
    .selectFrom("payments")
    .select(["created_at", "seq"])
    .where("id", "=", id)
    .where("merchant_id", "=", caller.merchantId)
    .where("mode", "=", caller.mode)
    .executeTakeFirst();
}

export type DashboardPaymentsQuery = PaymentFilterInput & PageQuery;

/** Newest first, keyset pages on (created_at, seq); the filters are checked before the cursor (the REST order). */
export async function listDashboardPayments(deps: CoreDeps, tx: Tx, caller: MerchantCaller, query: DashboardPaymentsQuery): Promise<Page<PaymentListItem>> {
  if (query.malformed !== undefined) fail("validation_error", query.malformed);
  const limit = parseLimit(query.limit);
  const filters = parsePaymentFilters(query);
  return keysetPage(limit, query.starting_after, {
    noun: "payments",
    findCursor: (id) => ownPaymentCursor(tx, caller, id),
    fetch: (after, take) => filteredPayments(db(tx).selectFrom("payments").select(PAYMENT_LIST_COLUMNS), caller, filters, after).limit(take).execute(),
    view: (row) => toPaymentListItem(deps, row),
  });
}
