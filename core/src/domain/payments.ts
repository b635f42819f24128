import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { isId } from "./ids.ts";
import { PAYMENT_STATUSES, type PaymentStatus } from "./payment-states.ts";
import { PAYMENT_VIEW_COLUMNS, toPaymentView, type PaymentView } from "./payment-view.ts";
import type { Tx } from "./unit-of-work.ts";

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

export interface ListPaymentsQuery {
  limit?: number | undefined;
  starting_after?: string | undefined;
  status?: string | undefined;
  /** Why the transport could not read the query, if it could not. */
  malformed?: string | undefined;
}

export interface PaymentPage {
  data: PaymentView[];
  has_more: boolean;
}

const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 100;

export function parseLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) fail("validation_error", `limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  return limit;
}

function parseStatus(text: string | undefined): PaymentStatus | undefined {
  if (text === undefined) return undefined;
  if (!(PAYMENT_STATUSES as readonly string[]).includes(text)) {
    fail("validation_error", `status must be one of ${PAYMENT_STATUSES.join(", ")}.`);
  }
  return text as PaymentStatus;
}

/** GET /v1/payments: newest first, keyset-paginated on (created_at, seq) so inserts never shift pages. */
export async function listPayments(deps: CoreDeps, tx: Tx, caller: MerchantCaller, query: ListPaymentsQuery): Promise<PaymentPage> {
  if (query.malformed !== undefined) fail("validation_error", query.malformed);
  const limit = parseLimit(query.limit);
  const status = parseStatus(query.status);
  let cursor: { created_at: Date; seq: string } | undefined;
  if (query.starting_after !== undefined) {
    cursor = await findOwnPayment(tx, caller, query.starting_after);
    if (!cursor) fail("validation_error", "starting_after must be the id of one of your payments.");
  }
  let q = db(tx)
    .selectFrom("payments")
    .select(PAYMENT_VIEW_COLUMNS)
    .where("merchant_id", "=", caller.merchantId)
    .where("mode", "=", caller.mode);
  if (status) q = q.where("status", "=", status);
  if (cursor) {
    const after = cursor;
    q = q.where(({ eb, refTuple, tuple }) => eb(refTuple("created_at", "seq"), "<", tuple(after.created_at, after.seq)));
  }
  const rows = await q.orderBy("created_at", "desc").orderBy("seq", "desc").limit(limit + 1).execute();
  return { data: rows.slice(0, limit).map((row) => toPaymentView(deps.config, row)), has_more: rows.length > limit };
}
