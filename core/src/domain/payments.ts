import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { isId } from "./ids.ts";
import { isPaymentStatus, PAYMENT_STATUSES, type PaymentStatus } from "./payment-states.ts";
import { PAYMENT_VIEW_COLUMNS, toPaymentView, type PaymentView } from "./payment-view.ts";
import type { Tx } from "./unit-of-work.ts";
import { keysetPage, parseLimit, type Page, type PageQuery } from "./keyset-page.ts";

const unknownPayment = () => new DomainError("unknown_payment", "No such payment.");

async function findOwnPayment(tx: Tx, caller: MerchantCaller, id: string) {
  if (!isId("pay", id)) return undefined;
  return db(tx)
    .selectFrom("payments")
    .select([...PAYMENT_VIEW_COLUMNS, "seq"])
    .where("id", "=", id)
    .where("merchant_id", "=", caller.merchantId)
    .where("mode", "=", caller.mode)
    .executeTakeFirst();
}

/** GET /v1/payments/{id}: another merchant's or mode's payment answers exactly like a missing one. */
export async function getPayment(deps: CoreDeps, tx: Tx, caller: MerchantCaller, id: string): Promise<PaymentView> {
  const row = await findOwnPayment(tx, caller, id);
  if (!row) throw unknownPayment();
  return toPaymentView(deps.config, row);
}

export interface ListPaymentsQuery extends PageQuery {
  status?: string | undefined;
}

export type PaymentPage = Page<PaymentView>;

function parseStatus(text: string | undefined): PaymentStatus | undefined {
  if (text === undefined || isPaymentStatus(text)) return text;
  return fail("validation_error", `status must be one of ${PAYMENT_STATUSES.join(", ")}.`);
}

/** GET /v1/payments: newest first, keyset-paginated on (created_at, seq) so inserts never shift pages. */
export async function listPayments(deps: CoreDeps, tx: Tx, caller: MerchantCaller, query: ListPaymentsQuery): Promise<PaymentPage> {
  if (query.malformed !== undefined) fail("validation_error", query.malformed);
  const limit = parseLimit(query.limit);
  const status = parseStatus(query.status);
  return keysetPage(limit, query.starting_after, {
    noun: "payments",
    findCursor: (id) => findOwnPayment(tx, caller, id),
    fetch: (after, take) => {
      let q = db(tx).selectFrom("payments").select(PAYMENT_VIEW_COLUMNS).where("merchant_id", "=", caller.merchantId).where("mode", "=", caller.mode);
      if (status) q = q.where("status", "=", status);
      if (after) q = q.where((eb) => eb(eb.refTuple("created_at", "seq"), "<", eb.tuple(after.created_at, after.seq)));
      return q.orderBy("created_at", "desc").orderBy("seq", "desc").limit(take).execute();
    },
    view: (row) => toPaymentView(deps.config, row),
  });
}
