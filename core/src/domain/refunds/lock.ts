import { sql, type QueryCreator, type SelectQueryBuilder } from "kysely";
import { db, type DB } from "../../db/orm.ts";
import { PreparedStatement, statementBuilder } from "../../db/prepared.ts";
import { isActiveKey, unauthorized } from "../api-keys.ts";
import type { MerchantCaller, PresentedApiKey } from "../caller.ts";
import { claimKey, merchantScope, merchantScopeSql, type KeyClaim } from "../idempotency.ts";
import type { PaymentStatus } from "../payment-states.ts";
import type { Tx } from "../unit-of-work.ts";

/** What a refund reads of its payment, under the payment's row lock. */
export interface LockedPayment {
  id: string;
  merchant_id: string;
  mode: string;
  status: PaymentStatus;
  status_before_chargeback: PaymentStatus | null;
  amount: string;
  currency: string;
  available_to_merchant_at: Date | null;
  /**
   * The sum of the payment's refunds: the running total every refund adds to the row it holds locked
   * (refunds/write.ts). Read with the row lock (`FOR UPDATE` returns the newest committed version, even
   * after waiting for another refund of the payment), so it counts every refund committed so far.
   */
  refunded_amount: string;
}

const LOCKED_COLUMNS = [
  "id",
  "merchant_id",
  "mode",
  "status",
  "status_before_chargeback",
  "amount",
  "currency",
  "available_to_merchant_at",
  "refunded_amount",
] as const;

/** Any merchant's payment, under its row lock (refundPayment: whoever asks was checked before). */
export function lockPayment(tx: Tx, paymentId: string): Promise<LockedPayment | undefined> {
  return db(tx).selectFrom("payments").select(LOCKED_COLUMNS).where("id", "=", paymentId).forUpdate().executeTakeFirst();
}

/** Who asks: an API key not yet resolved (resolved by the locking statement), or a merchant an operator acts for. */
export type RefundOwner = { kind: "api_key"; key: PresentedApiKey } | { kind: "merchant"; caller: MerchantCaller };

export type LockOutcome = { kind: "locked"; payment: LockedPayment; scope: string } | { kind: "taken"; scope: string } | { kind: "missing" };

/**
 * Resolves the owner, claims the idempotency key (when there is one) and only then locks the owner's
 * payment, in one statement, so every request takes the key before the payment and two requests never
 * wait on each other in opposite orders. "taken": an earlier request holds the key. unauthorized when
 * the API key does not resolve.
 * The locked row carries the sum of the payment's refunds (refunded_amount), so no refund is summed.
 */
export async function lockOwnPayment(tx: Tx, owner: RefundOwner, paymentId: string, claim: KeyClaim | undefined): Promise<LockOutcome> {
  if (!claim) {
    if (owner.kind !== "merchant") throw new Error("an API key request always has an Idempotency-Key");
    const { caller } = owner;
    const payment = await db(tx)
      .selectFrom("payments")
      .select(LOCKED_COLUMNS)
      .where("id", "=", paymentId)
      .where("merchant_id", "=", caller.merchantId)
      .where("mode", "=", caller.mode)
      .forUpdate()
      .executeTakeFirst();
    return payment ? { kind: "locked", payment, scope: merchantScope(caller) } : { kind: "missing" };
  }
  const values: LockValues = {
    payment_id: paymentId,
    key: claim.key,
    fingerprint: claim.fingerprint,
    resource_id: claim.resourceId,
    response: claim.response,
    now: claim.now,
    expires_at: claim.expiresAt,
  };
  const { rows } =
    owner.kind === "api_key"
      ? await LOCK_FOR_API_KEY.run(db(tx), { ...values, digest: owner.key.digest, key_mode: owner.key.mode })
      : await LOCK_FOR_MERCHANT.run(db(tx), {
          ...values,
          merchant_id: owner.caller.merchantId,
          caller_mode: owner.caller.mode,
          scope: merchantScope(owner.caller),
        });
  const row = rows[0];
  if (!row) throw unauthorized();
  if (row.claimed === null) return { kind: "taken", scope: row.scope };
  if (row.id === null) return { kind: "missing" };
  return { kind: "locked", payment: lockedPaymentOf({ ...row, id: row.id }), scope: row.scope };
}

/** A locking statement's row (lockOwnPayment's, or a refund batch's): the payment it locked. */
export interface LockedRow {
  id: string;
  merchant_id: string | null;
  mode: string | null;
  status: PaymentStatus | null;
  status_before_chargeback: PaymentStatus | null;
  amount: string | null;
  currency: string | null;
  available_to_merchant_at: Date | null;
  /** The running total of the payment's refunds, read with the lock. */
  refunded_amount: string | null;
}

/** The payment a locking statement locked, with the running total of its refunds. */
export function lockedPaymentOf(row: LockedRow): LockedPayment {
  const payment: LockedPayment = {
    id: row.id,
    merchant_id: row.merchant_id!,
    mode: row.mode!,
    status: row.status!,
    status_before_chargeback: row.status_before_chargeback,
    amount: String(row.amount),
    currency: row.currency!,
    available_to_merchant_at: row.available_to_merchant_at,
    refunded_amount: String(row.refunded_amount),
  };
  return payment;
}

type LockValues = { payment_id: string; key: string; fingerprint: string; resource_id: string; response: string; now: Date; expires_at: Date };

interface OwnerRow {
  owner_merchant_id: string;
  owner_mode: string;
  scope: string;
}

const lockStatement =
  <V extends LockValues>(owner: (qc: QueryCreator<DB>, v: V) => SelectQueryBuilder<DB, keyof DB, OwnerRow>) =>
  (v: V) =>
    statementBuilder
      .with("owner", (qc) => owner(qc, v))
      .with("claim", (qc) =>
        claimKey(qc, "owner", { key: v.key, fingerprint: v.fingerprint, resourceId: v.resource_id, response: v.response, now: v.now, expiresAt: v.expires_at }),
      )
      .with("locked", (qc) =>
        qc
          .selectFrom("payments")
          .select(LOCKED_COLUMNS)
          .where("id", "=", v.payment_id)
          // The owner as one expression no index matches, so the payment is always found by its primary
          // key: as separate merchant_id and mode conditions, the planner (on statistics from when the
          // merchant had few payments) took payments_list_status_idx and walked every payment of the
          // merchant, which made refunds 4× slower once the merchant had tens of thousands.
          .where(merchantScopeSql(sql.ref("merchant_id"), sql.ref("mode")), "=", (eb) => eb.selectFrom("owner").select("owner.scope"))
          .where((eb) => eb.exists(eb.selectFrom("claim").select("claim.scope")))
          .forUpdate(),
      )
      .selectFrom("owner")
      .leftJoin("claim", (join) => join.onTrue())
      .leftJoin("locked", (join) => join.onTrue())
      .select(["owner.scope", "claim.scope as claimed", ...LOCKED_COLUMNS.map((c) => `locked.${c}` as const)]);

const LOCK_FOR_API_KEY = new PreparedStatement(
  lockStatement((qc, v: LockValues & { digest: string; key_mode: string }) =>
    qc
      .selectFrom("api_keys")
      // The scope as the same text expression the payment is matched on (see "locked").
      .select([
        "api_keys.merchant_id as owner_merchant_id",
        "api_keys.mode as owner_mode",
        merchantScopeSql(sql.ref("api_keys.merchant_id"), sql.ref("api_keys.mode")).as("scope"),
      ])
      .where("api_keys.digest", "=", v.digest)
      .where("api_keys.mode", "=", v.key_mode)
      .where(isActiveKey(v.now)),
  ),
);

const LOCK_FOR_MERCHANT = new PreparedStatement(
  lockStatement((qc, v: LockValues & { merchant_id: string; caller_mode: string; scope: string }) =>
    // Bound values in a select list need their type named (PostgreSQL cannot infer it there).
    qc.selectNoFrom([
      sql<string>`${v.merchant_id}::text`.as("owner_merchant_id"),
      sql<string>`${v.caller_mode}::text`.as("owner_mode"),
      sql<string>`${v.scope}::text`.as("scope"),
    ]),
  ),
);
