import type { CoreDeps } from "../deps.ts";
import { replayOrConflict, type IdempotentResult } from "../idempotency.ts";
import { atomically, type Changes, type Tx } from "../unit-of-work.ts";
import { lockOwnPayment } from "./lock.ts";
import { planRefund } from "./plan.ts";
import type { RefundRequest } from "./validate.ts";
import { DEFAULT_REFUND_REASON, unknownPayment, type RefundView } from "./view.ts";
import { writeRefundRecorded } from "./write.ts";

/**
 * One validated refund request in a short transaction of its own (`tx` need not be one): three
 * statements in it. The first resolves the API key, claims the key (scope: merchant and mode) and
 * only then locks the payment, so a concurrent request with the same key waits for this one and
 * replays it; the second reads the remainder (only when the first cannot vouch for it:
 * `lockOwnPayment`); the last writes the refund. A refused request rolls the claim back.
 */
export function refundOnce(deps: CoreDeps, tx: Tx, request: RefundRequest): Promise<IdempotentResult<RefundView>> {
  const { key, input, fingerprint, owner } = request;
  return atomically(tx, async (inner): Promise<Changes<IdempotentResult<RefundView>>> => {
    const now = deps.now();
    const locked = await lockOwnPayment(
      inner,
      owner,
      input.payment_id,
      key === undefined
        ? undefined
        : {
            key,
            fingerprint,
            resourceId: input.payment_id,
            response: "",
            now,
            expiresAt: new Date(now.getTime() + deps.config.idempotencyTtlMs),
          },
    );
    if (locked.kind === "taken") return { value: await replayOrConflict(inner, locked.scope, key!, fingerprint), events: [] };
    if (locked.kind === "missing") throw unknownPayment();
    const planned = await planRefund(
      deps,
      inner,
      locked.payment,
      input.amount === undefined ? undefined : BigInt(input.amount),
      input.reason ?? DEFAULT_REFUND_REASON,
    );
    const response = JSON.stringify(planned.view);
    // One statement writes the refund and records its event in the outbox (so none is left for atomically to record).
    await writeRefundRecorded(inner, planned, key === undefined ? undefined : { scope: locked.scope, key, response });
    return { value: { value: planned.view, replayed: false }, events: [] };
  });
}
