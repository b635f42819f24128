import { db } from "../db/orm.ts";
import type { MerchantCaller, OperatorCaller } from "./caller.ts";
import type { ChargebackView } from "./chargebacks.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { isId } from "./ids.ts";
import { keysetPage, parseLimit, type Page, type PageQuery } from "./keyset-page.ts";
import type { Tx } from "./unit-of-work.ts";

// GET /v1/chargebacks and /v1/chargebacks/{id}: the disputes on a merchant's payments, as spec 2.5
// shows them (never the reason).

const COLUMNS = ["id", "payment_id", "amount", "currency", "status", "created_at", "seq"] as const;

function toView(row: { id: string; payment_id: string; amount: string; currency: string; status: string }): ChargebackView {
  return { id: row.id, payment_id: row.payment_id, amount: String(row.amount), currency: row.currency, status: row.status as ChargebackView["status"] };
}

/** The chargeback `id` if the caller may see it: a merchant only its own of its mode, an operator on its own any. */
async function findChargeback(tx: Tx, caller: MerchantCaller | OperatorCaller, id: string) {
  if (!isId("chb", id)) return undefined;
  let q = db(tx).selectFrom("chargebacks").select(COLUMNS).where("id", "=", id);
  if (caller.kind === "merchant") q = q.where("merchant_id", "=", caller.merchantId).where("mode", "=", caller.mode);
  return q.executeTakeFirst();
}

/** The catalog has no unknown_chargeback: an unknown id, or another merchant's or mode's, is validation_error (GET answers it as 404). */
export async function getChargeback(_deps: CoreDeps, tx: Tx, caller: MerchantCaller | OperatorCaller, id: string): Promise<ChargebackView> {
  const row = await findChargeback(tx, caller, id);
  if (!row) return fail("validation_error", `No chargeback ${id}.`);
  return toView(row);
}

/** A merchant's chargebacks in one mode, newest first, keyset-paginated like every list. */
export async function listChargebacks(_deps: CoreDeps, tx: Tx, caller: MerchantCaller, query: PageQuery): Promise<Page<ChargebackView>> {
  if (query.malformed !== undefined) fail("validation_error", query.malformed);
  const limit = parseLimit(query.limit);
  return keysetPage(limit, query.starting_after, {
    noun: "chargebacks",
    findCursor: (id) => findChargeback(tx, caller, id),
    fetch: (after, take) => {
      let q = db(tx).selectFrom("chargebacks").select(COLUMNS).where("merchant_id", "=", caller.merchantId).where("mode", "=", caller.mode);
      if (after) q = q.where((eb) => eb(eb.refTuple("created_at", "seq"), "<", eb.tuple(after.created_at, after.seq)));
      return q.orderBy("created_at", "desc").orderBy("seq", "desc").limit(take).execute();
    },
    view: toView,
  });
}
