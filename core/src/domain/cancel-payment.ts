import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import {
  checkIdempotencyKeyShape,
  claimKeyIn,
  earlierAnswer,
  merchantScope,
  replayOrConflict,
  requestFingerprint,
  requireIdempotencyKey,
  type IdempotentResult,
} from "./idempotency.ts";
import { lockPayable, notPayable } from "./payment-lock.ts";
import { cancel, type PaymentStatus } from "./payment-states.ts";
import { transitionPayment } from "./payment-transitions.ts";
import type { PaymentView } from "./payment-view.ts";
import { atomically, type Changes, type Tx } from "./unit-of-work.ts";

export interface CancelPaymentCommand {
  id: string;
  /** Optional; when given, the same rules as for creating a payment (scope: the merchant and mode). */
  idempotencyKey?: string | undefined;
}

/**
 * POST /v1/payments/{id}/cancel: a payable payment of the caller's merchant and mode becomes
 * canceled (payment.canceled); a resolved one is payment_not_payable; anyone else's is
 * unknown_payment. With an Idempotency-Key, a repeat of the same cancel replays the first answer
 * (even though the payment is no longer payable by then) and the key used for another request is
 * idempotency_key_reused. Runs its own transaction: an expiry it finds on the way is kept.
 */
export async function cancelPayment(deps: CoreDeps, tx: Tx, caller: MerchantCaller, command: CancelPaymentCommand): Promise<IdempotentResult<PaymentView>> {
  const key = command.idempotencyKey === undefined ? undefined : requireIdempotencyKey(command.idempotencyKey);
  if (key !== undefined) checkIdempotencyKeyShape(key);
  const scope = merchantScope(caller);
  const fingerprint = requestFingerprint("cancel_payment", { id: command.id });
  const result = await atomically(tx, async (inner): Promise<Changes<IdempotentResult<PaymentView> | { refused: PaymentStatus }>> => {
    const now = deps.now();
    if (key !== undefined) {
      const earlier = await earlierAnswer<PaymentView>(inner, scope, key, fingerprint, now);
      if (earlier) return { value: earlier, events: [] };
    }
    const locked = await lockPayable(deps, inner, command.id, { merchantId: caller.merchantId, mode: caller.mode });
    if (!locked.value.payable) return { value: { refused: locked.value.status }, events: locked.events };
    if (key !== undefined) {
      // A concurrent request with the same key waits here for the other to commit, then finds it taken.
      const claimed = await claimKeyIn(inner, scope, {
        key,
        fingerprint,
        resourceId: command.id,
        response: "",
        now,
        expiresAt: new Date(now.getTime() + deps.config.idempotencyTtlMs),
      });
      if (!claimed) return { value: await replayOrConflict(inner, scope, key, fingerprint), events: [] };
    }
    const changes = await transitionPayment(deps, inner, command.id, [cancel]);
    const response = JSON.stringify(changes.value);
    if (key !== undefined) await db(inner).updateTable("idempotency_keys").set({ response }).where("scope", "=", scope).where("key", "=", key).execute();
    return { value: { value: changes.value, replayed: false }, events: changes.events };
  });
  if ("refused" in result) return notPayable(result.refused);
  return result;
}
