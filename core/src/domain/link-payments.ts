// The payments made through one of the merchant's links (the link's dashboard page), newest first.
import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { ownPaymentCursor, PAYMENT_LIST_COLUMNS, toPaymentListItem, type PaymentListItem } from "./dashboard-payments.ts";
import { keysetPage, parseLimit, type Page, type PageQuery } from "./keyset-page.ts";
import { findLink, unknownLink } from "./links.ts";
import { filteredPayments } from "./payment-filters.ts";
import type { Tx } from "./unit-of-work.ts";

export interface LinkPaymentsQuery extends PageQuery {
  id: string;
}

/** Another merchant's or mode's link answers like a missing one (unknown_payment_link). */
export async function listLinkPayments(deps: CoreDeps, tx: Tx, caller: MerchantCaller, query: LinkPaymentsQuery): Promise<Page<PaymentListItem>> {
  if (query.malformed !== undefined) fail("validation_error", query.malformed);
  const limit = parseLimit(query.limit);
  if (!(await findLink(tx, query.id, caller))) throw unknownLink();
  const filters = { linkId: query.id };
  return keysetPage(limit, query.starting_after, {
    noun: "payments",
    findCursor: (id) => ownPaymentCursor(tx, caller, id),
    fetch: (after, take) => filteredPayments(db(tx).selectFrom("payments").select(PAYMENT_LIST_COLUMNS), caller, filters, after).limit(take).execute(),
    view: (row) => toPaymentListItem(deps, row),
  });
}
