import { db } from "../db/orm.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { PAYABLE_STATUSES } from "../domain/payment-states.ts";
import { expireIfPayable } from "../domain/payment-transitions.ts";
import { inTransaction } from "../domain/unit-of-work.ts";
import { jobRuns } from "../metrics.ts";

/** Expires payable payments whose PAYMENT_TTL has passed. Safe with many cores: each payment is locked while it moves. */
export async function expireDuePayments(deps: CoreDeps, batch = 200): Promise<number> {
  const due = await db(deps.orm.em.fork())
    .selectFrom("payments")
    .select("id")
    .where("status", "in", PAYABLE_STATUSES)
    .where("expires_at", "<=", deps.now())
    .limit(batch)
    .execute();
  let expired = 0;
  for (const { id } of due) {
    if (await inTransaction(deps, (tx) => expireIfPayable(deps, tx, id))) expired++;
  }
  jobRuns.inc({ job: "expire_payments", outcome: "expired" }, expired);
  return expired;
}
