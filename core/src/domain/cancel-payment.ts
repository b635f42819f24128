import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { checkIdempotencyKeyShape, replayOrConflict, requestFingerprint, requireIdempotencyKey, type IdempotentResult } from "./idempotency.ts";
import { lockPayable, notPayable } from "./payment-lock.ts";
import { cancel, type PaymentStatus } from "./payment-states.ts";
import { transitionPayment } from "./payment-transitions.ts";
import { atomically, type Changes, type Tx } from "./unit-of-work.ts";

export interface CancelPaymentCommand {
  id: string;
  /** Optional; when given, the same rules as for creating a payment (scope: the merchant and mode). */
  idempotencyKey: string | undefined;
}

/**
 * POST /v1/payments/{id}/cancel: a payable payment of the caller's merchant and mode becomes
 * canceled (payment.canceled); a resolved one is payment_not_payable; anyone else's is
 * unknown_payment. With an Idempotency-Key, a repeat of the same cancel replays the first answer
 * (even though the payment is no longer payable by then) and the key used for another request is
 * idempotency_key_reused. Runs its own transaction: an expiry it finds on the way is kept.
 */
export async function cancelPayment(deps: CoreDeps, tx: Tx, caller: MerchantCaller, command: CancelPaymentCommand): Promise<IdempotentResult> {
  const key = command.idempotencyKey === undefined ? undefined : requireIdempotencyKey(command.idempotencyKey);
  if (key !== undefined) checkIdempotencyKeyShape(key);
  const scope = `${caller.merchantId}:${caller.mode}`;
  const fingerprint = requestFingerprint("cancel_payment", { id: command.id });
  const result = await atomically(tx, async (inner): Promise<Changes<IdempotentResult | { refused: PaymentStatus }>> => {
    const now = deps.now();
    const trx = db(inner);
    if (key !== undefined) {
      const taken = await trx.selectFrom("idempotency_keys").select("scope").where("scope", "=", scope).where("key", "=", key).where("expires_at", ">", now).executeTakeFirst();
      if (taken) return { value: await replayOrConflict(inner, scope, key, fingerprint), events: [] };
    }
    const locked = await lockPayable(deps, inner, command.id, { merchantId: caller.merchantId, mode: caller.mode });
    if (!locked.value.payable) return { value: { refused: locked.value.status }, events: locked.events };
    if (key !== undefined) {
      // A concurrent request with the same key waits here for the other to commit, then finds it taken.
      const claimed = await trx
        .insertInto("idempotency_keys")
        .values({ scope, key, fingerprint, resource_id: command.id, response: "", created_at: now, expires_at: new Date(now.getTime() + deps.config.idempotencyTtlMs) })
        .onConflict((oc) => oc.columns(["scope", "key"]).doUpdateSet((eb) => ({
          fingerprint: eb.ref("excluded.fingerprint"), resource_id: eb.ref("excluded.resource_id"), response: eb.ref("excluded.response"),
          created_at: eb.ref("excluded.created_at"), expires_at: eb.ref("excluded.expires_at"),
        })).where("idempotency_keys.expires_at", "<=", now))
        .returning("scope")
        .executeTakeFirst();
      if (!claimed) return { value: await replayOrConflict(inner, scope, key, fingerprint), events: [] };
    }
    const changes = await transitionPayment(deps, inner, command.id, [cancel]);
    const response = JSON.stringify(changes.value);
    if (key !== undefined) await trx.updateTable("idempotency_keys").set({ response }).where("scope", "=", scope).where("key", "=", key).execute();
    return { value: { response, replayed: false }, events: changes.events };
  });
  if ("refused" in result) return notPayable(result.refused);
  return result;
}
