import { db } from "../../db/orm.ts";
import type { MerchantCaller, OperatorCaller } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import { fail } from "../errors.ts";
import { isId } from "../ids.ts";
import { keysetPage, parseLimit, type Page, type PageQuery } from "../keyset-page.ts";
import type { Tx } from "../unit-of-work.ts";
import { REFUND_COLUMNS, toRefundView, unknownPayment, unknownRefund, type RefundView } from "./view.ts";

async function findOwnRefund(tx: Tx, caller: MerchantCaller | OperatorCaller, id: string) {
  if (!isId("refund", id)) return undefined;
  let q = db(tx)
    .selectFrom("refunds")
    .select([...REFUND_COLUMNS, "seq"])
    .where("id", "=", id);
  if (caller.kind === "merchant") q = q.where("merchant_id", "=", caller.merchantId).where("mode", "=", caller.mode);
  return q.executeTakeFirst();
}

/** GET /v1/refunds/{id}: another merchant's or mode's refund answers exactly like a missing one; an operator sees any. */
export async function getRefund(_deps: CoreDeps, tx: Tx, caller: MerchantCaller | OperatorCaller, id: string): Promise<RefundView> {
  const row = await findOwnRefund(tx, caller, id);
  if (!row) throw unknownRefund();
  return toRefundView(row);
}

export interface ListRefundsQuery extends PageQuery {
  payment_id?: string | undefined;
}

/** GET /v1/refunds: newest first, keyset-paginated on (created_at, seq); `payment_id` must name one of the caller's payments. */
export async function listRefunds(_deps: CoreDeps, tx: Tx, caller: MerchantCaller, query: ListRefundsQuery): Promise<Page<RefundView>> {
  if (query.malformed !== undefined) fail("validation_error", query.malformed);
  const limit = parseLimit(query.limit);
  const paymentId = query.payment_id;
  if (paymentId !== undefined) {
    const own =
      isId("pay", paymentId) &&
      (await db(tx)
        .selectFrom("payments")
        .select("id")
        .where("id", "=", paymentId)
        .where("merchant_id", "=", caller.merchantId)
        .where("mode", "=", caller.mode)
        .executeTakeFirst());
    if (!own) throw unknownPayment();
  }
  return keysetPage(limit, query.starting_after, {
    noun: "refunds",
    findCursor: (id) => findOwnRefund(tx, caller, id),
    fetch: (after, take) => {
      let q = db(tx).selectFrom("refunds").select(REFUND_COLUMNS).where("merchant_id", "=", caller.merchantId).where("mode", "=", caller.mode);
      if (paymentId !== undefined) q = q.where("payment_id", "=", paymentId);
      if (after) q = q.where((eb) => eb(eb.refTuple("created_at", "seq"), "<", eb.tuple(after.created_at, after.seq)));
      return q.orderBy("created_at", "desc").orderBy("seq", "desc").limit(take).execute();
    },
    view: toRefundView,
  });
}
