import { sql, type QueryCreator, type SelectQueryBuilder } from "kysely";
import { z } from "zod";
import { db, type DB } from "../db/orm.ts";
import { PreparedStatement, statementBuilder } from "../db/prepared.ts";
import { isActiveKey, readableApiKey, resolveApiKey, unauthorized } from "./api-keys.ts";
import type { MerchantCaller, OperatorCaller, PresentedApiKey, PresentedCredential } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { checkIdempotencyKeyShape, claimKey, merchantScope, replayOrConflict, requestFingerprint, requireIdempotencyKey, type IdempotentResult, type KeyClaim } from "./idempotency.ts";
import { isId, newId } from "./ids.ts";
import { keysetPage, parseLimit, type Page, type PageQuery } from "./keyset-page.ts";
import { LEDGER_TRANSACTIONS_CTE, ledgerLinesInsert, ledgerTransactionsInsert, ledgerValues, lockMerchantFunds, type LedgerLineInput, type LedgerValues } from "./ledger.ts";
import { outboxInsert, outboxNotify, outboxValues, type OutboxValues, type RaisedEvent } from "./outbox.ts";
import { AMOUNT_SCHEMA, parseOrFail } from "./payment-input.ts";
import { canApply, refundPart, refundRest, type PaymentStatus, type TransitionResult } from "./payment-states.ts";
import { transitionColumns } from "./payment-transitions.ts";
import { atomically, type Changes, type Tx } from "./unit-of-work.ts";

export const REFUND_REASONS = [
  "requested_by_customer", "duplicate_charge", "product_not_received", "product_unacceptable", "merchant_error", "fraudulent", "other",
] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];
export const DEFAULT_REFUND_REASON: RefundReason = "requested_by_customer";

/** The public Refund object (spec 2.4, keys in its order) plus created_at; also the `data` of refund.succeeded. */
export interface RefundView {
  id: string;
  payment_id: string;
  amount: string;
  currency: string;
  reason: RefundReason;
  status: "succeeded";
  created_at: string;
}

const REFUND_COLUMNS = ["id", "payment_id", "amount", "currency", "reason", "status", "created_at"] as const;

interface RefundRow {
  id: string;
  payment_id: string;
  amount: string;
  currency: string;
  reason: string;
  status: string;
  created_at: Date;
}

function toRefundView(row: RefundRow): RefundView {
  return {
    id: row.id,
    payment_id: row.payment_id,
    amount: String(row.amount),
    currency: row.currency,
    reason: row.reason as RefundReason,
    status: row.status as "succeeded",
    created_at: row.created_at.toISOString(),
  };
}

const unknownPayment = () => new DomainError("unknown_payment", "No such payment.");
// The catalog has no unknown_refund: a refund id that is not the caller's answers with the nearest code (README).
const unknownRefund = () => new DomainError("unknown_payment", "No such refund.");

/** What a refund reads of its payment, under the payment's row lock. */
interface LockedPayment {
  id: string;
  merchant_id: string;
  mode: string;
  status: string;
  status_before_chargeback: string | null;
  amount: string;
  currency: string;
  available_to_merchant_at: Date | null;
  /** The sum of the payment's refunds, when the statement that took the lock can vouch for it (lockOwnPayment). */
  refunded?: string;
}

const LOCKED_COLUMNS = ["id", "merchant_id", "mode", "status", "status_before_chargeback", "amount", "currency", "available_to_merchant_at"] as const;

/**
 * The money operation: refunds `amount` (default: all that remains) of a payment, whoever asks, in
 * `tx` (a transaction; the caller records the returned events). Takes the payment's row lock first,
 * so concurrent refunds of one payment run one after another and each counts every refund committed
 * before it. Throws unknown_payment, payment_not_refundable, refund_amount_exceeds_remaining.
 */
export async function refundPayment(deps: CoreDeps, tx: Tx, paymentId: string, amount: bigint | undefined, reason: RefundReason | undefined): Promise<Changes<RefundView>> {
  if (!isId("pay", paymentId)) throw unknownPayment();
  const payment = await db(tx).selectFrom("payments").select(LOCKED_COLUMNS).where("id", "=", paymentId).forUpdate().executeTakeFirst();
  if (!payment) throw unknownPayment();
  const planned = await planRefund(deps, tx, payment, amount, reason ?? DEFAULT_REFUND_REASON);
  await REFUND_WRITES.run(db(tx), refundWriteValues(planned, undefined));
  return { value: planned.view, events: [planned.event] };
}

/** A refund decided under its payment's row lock, not yet written. */
interface PlannedRefund {
  payment: LockedPayment;
  /** The payment's move, as the state table decided it (at the refund's own time). */
  move: TransitionResult;
  view: RefundView;
  ledger: LedgerValues;
  event: RaisedEvent;
}

/**
 * The refund of a payment whose row lock `tx` holds: the remainder is read after the lock (amount −
 * every refund committed so far: a statement of its own, so its snapshot is taken after the lock was
 * granted), the state table decides the payment's move (refundPart, or refundRest when nothing
 * remains), and the refund row, its ledger transaction and refund.succeeded are prepared for
 * `refundWrites` (which reuses the row lock instead of locking the payment again).
 */
async function planRefund(deps: CoreDeps, tx: Tx, payment: LockedPayment, asked: bigint | undefined, reason: RefundReason): Promise<PlannedRefund> {
  const status = payment.status as PaymentStatus;
  // The state table's refusal (payment_not_refundable, naming the status) comes before any amount check.
  if (!canApply("refundPart", status)) refundPart({ status, status_before_chargeback: null });
  const refunded = payment.refunded ?? (await REFUNDED_TOTAL.run(db(tx), { payment_id: payment.id })).rows[0]!.total;
  const remainder = BigInt(payment.amount) - BigInt(refunded);
  const amount = asked ?? remainder;
  if (amount > remainder) {
    fail("refund_amount_exceeds_remaining", `The refund amount ${amount} exceeds what remains of the payment: ${remainder} (minor units of ${payment.currency}).`);
  }
  const at = deps.now();
  const move = (amount === remainder ? refundRest : refundPart)({ status, status_before_chargeback: payment.status_before_chargeback as PaymentStatus | null }, at);
  const row: RefundRow = {
    id: newId("refund"), payment_id: payment.id, amount: amount.toString(), currency: payment.currency, reason, status: "succeeded", created_at: at,
  };
  const ledger = ledgerValues([{
    kind: "refund", merchantId: payment.merchant_id, mode: payment.mode, currency: payment.currency, at, paymentId: payment.id, refundId: row.id,
    lines: await refundLines(tx, payment, amount),
  }]);
  const view = toRefundView(row);
  // refundPart/refundRest raise no payment.* event: their event is refund.succeeded, raised here with the Refund object.
  const event: RaisedEvent = { merchantId: payment.merchant_id, mode: payment.mode, type: "refund.succeeded", data: view, at };
  return { payment, move, view, ledger, event };
}

const REFUNDED_TOTAL = new PreparedStatement((v: { payment_id: string }) =>
  statementBuilder
    .selectFrom("refunds")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>("amount"), sql<string>`0`).as("total"))
    .where("payment_id", "=", v.payment_id));

type RefundWriteValues = {
  payment_id: string;
  payment_status: string;
  payment_status_before_chargeback: string | null;
  moved_at: Date;
  refund_id: string;
  merchant_id: string;
  mode: string;
  amount: string;
  currency: string;
  reason: string;
  refund_status: string;
  created_at: Date;
  /** The key whose response this refund is (null: none, the update matches nothing). Its row was claimed by an earlier statement. */
  key_scope: string | null;
  key: string | null;
  response: string;
} & LedgerValues;

/**
 * Every write of a planned refund, in one statement: the payment's move (the stamp is refunded_at
 * for both refund moves), the refund row, its ledger transaction and lines, the idempotency key's
 * response.
 */
const refundWrites = (v: RefundWriteValues) => {
  const move = { status: v.payment_status as PaymentStatus, status_before_chargeback: v.payment_status_before_chargeback as PaymentStatus | null, stamp: "refunded_at", at: v.moved_at, event: null } as const;
  return statementBuilder
    .with("payment_moved", (qc) => qc.updateTable("payments").set(transitionColumns(move, v.moved_at)).where("id", "=", v.payment_id).returning("payments.id"))
    .with("refund_written", (qc) =>
      qc.insertInto("refunds").values({
        id: v.refund_id, merchant_id: v.merchant_id, mode: v.mode, payment_id: v.payment_id, amount: v.amount, currency: v.currency, reason: v.reason,
        status: v.refund_status, created_at: v.created_at, updated_at: v.created_at,
      }).returning("refunds.id"))
    .with(LEDGER_TRANSACTIONS_CTE, () => ledgerTransactionsInsert(v))
    .with("ledger_lines_written", () => ledgerLinesInsert(v))
    .with("key_answered", (qc) =>
      qc.updateTable("idempotency_keys").set({ response: v.response }).where("scope", "=", v.key_scope).where("key", "=", v.key).returning("idempotency_keys.key"));
};

const REFUND_WRITES = new PreparedStatement((v: RefundWriteValues) => refundWrites(v).selectNoFrom(sql<number>`1`.as("written")));

/** The same, recording the refund's events in the outbox too (createRefund: its transaction is this operation's alone). */
const REFUND_WRITES_RECORDED = new PreparedStatement((v: RefundWriteValues & OutboxValues) =>
  refundWrites(v).with("events_written", () => outboxInsert(v)).selectNoFrom(outboxNotify.as("notified")));

function refundWriteValues(planned: PlannedRefund, answers: { scope: string; key: string; response: string } | undefined): RefundWriteValues {
  const { payment, move, view } = planned;
  if (move.stamp !== "refunded_at") throw new Error(`a refund move stamps refunded_at, not ${move.stamp}`);
  return {
    payment_id: payment.id, payment_status: move.status, payment_status_before_chargeback: move.status_before_chargeback, moved_at: move.at,
    refund_id: view.id, merchant_id: payment.merchant_id, mode: payment.mode, amount: view.amount, currency: view.currency, reason: view.reason,
    refund_status: view.status, created_at: planned.event.at,
    key_scope: answers?.scope ?? null, key: answers?.key ?? null, response: answers?.response ?? "",
    ...planned.ledger,
  };
}

/**
 * Paytami pays the customer back from its cash; the merchant owes it. Before release the payment's
 * money is still pending, so it comes out of pending. After release it comes out of the available
 * balance as far as that goes (under the funds lock, so a payout cannot take the same money), and the
 * rest out of pending: a debt, shown as negative pending, settled by the next releases and payouts.
 * The fee is never returned (DESIGN §4).
 */
async function refundLines(tx: Tx, payment: LockedPayment, amount: bigint): Promise<LedgerLineInput[]> {
  const cash: LedgerLineInput = { account: "platform_cash", amount };
  if (payment.available_to_merchant_at === null) return [{ account: "merchant_pending", amount: -amount }, cash];
  const { available } = await lockMerchantFunds(tx, payment.merchant_id, payment.mode, payment.currency);
  const fromAvailable = available <= 0n ? 0n : available < amount ? available : amount;
  return [{ account: "merchant_available", amount: -fromAvailable }, { account: "merchant_pending", amount: fromAvailable - amount }, cash];
}

const refundInputSchema = z.strictObject({
  payment_id: z.string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") }),
  amount: AMOUNT_SCHEMA.refine((text) => text !== "0", "must be greater than 0").optional(),
  reason: z.enum(REFUND_REASONS, { error: `must be one of ${REFUND_REASONS.join(", ")}` }).optional(),
}, { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "the body must be a JSON object") });

export type RefundInput = z.infer<typeof refundInputSchema>;

export interface CreateRefundCommand {
  /** Required with an API key (REST semantics); optional for an operator acting for a merchant. */
  idempotencyKey?: string | undefined;
  /** The body as the caller sent it ({payment_id, amount?, reason?}); validated here. */
  input: unknown;
  /** Why the transport could not read the request, if it could not. */
  malformed?: string | undefined;
}

/**
 * POST /v1/refunds for an API key or an operator acting for a merchant. Check order: Idempotency-Key,
 * credential, body shape, the payment (the caller's own, else unknown_payment), its state, the amount.
 * Runs its own short transaction (`tx` need not be one). A valid request takes three statements in
 * it: the first resolves the API key, claims the key (scope: merchant and mode) and only then locks
 * the payment, so a concurrent request with the same key waits for this one and replays it; the
 * second reads the remainder (only when the first cannot vouch for it: `lockOwnPayment`); the last
 * writes the refund. A refused request rolls the claim back. A request refused before the database
 * (its body) resolves its API key first, so the errors keep their order.
 */
export async function createRefund(deps: CoreDeps, tx: Tx, creator: PresentedCredential | MerchantCaller, command: CreateRefundCommand): Promise<IdempotentResult<RefundView>> {
  const presented = creator.kind !== "merchant";
  const key = presented ? requireIdempotencyKey(command.idempotencyKey) : command.idempotencyKey;
  const apiKey = presented ? readableApiKey(creator) : undefined;
  let input: RefundInput;
  try {
    if (key !== undefined) checkIdempotencyKeyShape(key);
    if (command.malformed !== undefined) fail("validation_error", command.malformed);
    input = parseOrFail(refundInputSchema, command.input);
    if (!isId("pay", input.payment_id)) throw unknownPayment();
  } catch (error) {
    if (apiKey && error instanceof DomainError) await resolveApiKey(deps, tx, apiKey);
    throw error;
  }
  const fingerprint = requestFingerprint("create_refund", input);
  const owner: RefundOwner = apiKey ? { kind: "api_key", key: apiKey } : { kind: "merchant", caller: creator as MerchantCaller };
  return atomically(tx, async (inner): Promise<Changes<IdempotentResult<RefundView>>> => {
    const now = deps.now();
    const locked = await lockOwnPayment(inner, owner, input.payment_id, key === undefined ? undefined : {
      key, fingerprint, resourceId: input.payment_id, response: "", now, expiresAt: new Date(now.getTime() + deps.config.idempotencyTtlMs),
    });
    if (locked.kind === "taken") return { value: await replayOrConflict(inner, locked.scope, key!, fingerprint), events: [] };
    if (locked.kind === "missing") throw unknownPayment();
    const planned = await planRefund(deps, inner, locked.payment, input.amount === undefined ? undefined : BigInt(input.amount), input.reason ?? DEFAULT_REFUND_REASON);
    const response = JSON.stringify(planned.view);
    // One statement writes the refund and records its event in the outbox (so none is left for atomically to record).
    await REFUND_WRITES_RECORDED.run(db(inner), {
      ...refundWriteValues(planned, key === undefined ? undefined : { scope: locked.scope, key, response }),
      ...outboxValues([planned.event]).values,
    });
    return { value: { value: planned.view, replayed: false }, events: [] };
  });
}

/** Who asks: an API key not yet resolved (resolved by the locking statement), or a merchant an operator acts for. */
type RefundOwner = { kind: "api_key"; key: PresentedApiKey } | { kind: "merchant"; caller: MerchantCaller };

type LockOutcome =
  | { kind: "locked"; payment: LockedPayment; scope: string }
  | { kind: "taken"; scope: string }
  | { kind: "missing" };

/**
 * Resolves the owner, claims the idempotency key (when there is one) and only then locks the owner's
 * payment, in one statement, so every request takes the key before the payment and two requests never
 * wait on each other in opposite orders. "taken": an earlier request holds the key. unauthorized when
 * the API key does not resolve.
 *
 * The same statement reads the refunds of the payment, but in the statement's snapshot, taken before
 * any wait for the key or the row lock: a refund committed during that wait is not in it. It is
 * vouched for only when the row version locked is the very one the snapshot sees (same ctid): every
 * refund updates its payment's row in its own transaction (refundWrites), so a refund committed
 * after the snapshot leaves a newer row version, and the lock returns that one. Otherwise
 * planRefund reads the remainder in a statement of its own, after the lock.
 */
async function lockOwnPayment(tx: Tx, owner: RefundOwner, paymentId: string, claim: KeyClaim | undefined): Promise<LockOutcome> {
  if (!claim) {
    if (owner.kind !== "merchant") throw new Error("an API key request always has an Idempotency-Key");
    const { caller } = owner;
    const payment = await db(tx).selectFrom("payments").select(LOCKED_COLUMNS)
      .where("id", "=", paymentId).where("merchant_id", "=", caller.merchantId).where("mode", "=", caller.mode).forUpdate().executeTakeFirst();
    return payment ? { kind: "locked", payment, scope: merchantScope(caller) } : { kind: "missing" };
  }
  const values: LockValues = {
    payment_id: paymentId, key: claim.key, fingerprint: claim.fingerprint, resource_id: claim.resourceId, response: claim.response, now: claim.now, expires_at: claim.expiresAt,
  };
  const { rows } = owner.kind === "api_key"
    ? await LOCK_FOR_API_KEY.run(db(tx), { ...values, digest: owner.key.digest, key_mode: owner.key.mode })
    : await LOCK_FOR_MERCHANT.run(db(tx), { ...values, merchant_id: owner.caller.merchantId, caller_mode: owner.caller.mode, scope: merchantScope(owner.caller) });
  const row = rows[0];
  if (!row) throw unauthorized();
  if (row.claimed === null) return { kind: "taken", scope: row.scope };
  if (row.id === null) return { kind: "missing" };
  const payment: LockedPayment = {
    id: row.id, merchant_id: row.merchant_id!, mode: row.mode!, status: row.status!, status_before_chargeback: row.status_before_chargeback,
    amount: row.amount!, currency: row.currency!, available_to_merchant_at: row.available_to_merchant_at,
  };
  if (row.locked_version !== null && row.locked_version === row.seen_version && row.refunded_seen !== null) payment.refunded = row.refunded_seen;
  return { kind: "locked", payment, scope: row.scope };
}

type LockValues = { payment_id: string; key: string; fingerprint: string; resource_id: string; response: string; now: Date; expires_at: Date };

interface OwnerRow {
  owner_merchant_id: string;
  owner_mode: string;
  scope: string;
}

const lockStatement = <V extends LockValues>(owner: (qc: QueryCreator<DB>, v: V) => SelectQueryBuilder<DB, any, OwnerRow>) => (v: V) =>
  statementBuilder
    .with("owner", (qc) => owner(qc, v))
    .with("claim", (qc) =>
      claimKey(qc, "owner", { key: v.key, fingerprint: v.fingerprint, resourceId: v.resource_id, response: v.response, now: v.now, expiresAt: v.expires_at }))
    .with("locked", (qc) =>
      qc.selectFrom("payments")
        .select([...LOCKED_COLUMNS, sql<string>`ctid::text`.as("locked_version")])
        .where("id", "=", v.payment_id)
        // The owner as one expression no index matches, so the payment is always found by its primary
        // key: as separate merchant_id and mode conditions, the planner (on statistics from when the
        // merchant had few payments) took payments_list_status_idx and walked every payment of the
        // merchant, which made refunds 4× slower once the merchant had tens of thousands.
        .where(sql<string>`merchant_id || ':' || mode`, "=", (eb) => eb.selectFrom("owner").select("owner.scope"))
        .where((eb) => eb.exists(eb.selectFrom("claim").select("claim.scope")))
        .forUpdate())
    .selectFrom("owner")
    .leftJoin("claim", (join) => join.onTrue())
    .leftJoin("locked", (join) => join.onTrue())
    .select(["owner.scope", "claim.scope as claimed", ...LOCKED_COLUMNS.map((c) => `locked.${c}` as const), "locked.locked_version"])
    .select((eb) => [
      // In the statement's snapshot: see lockOwnPayment.
      eb.selectFrom("payments").select(sql<string>`ctid::text`.as("v")).where("id", "=", v.payment_id).as("seen_version"),
      eb.selectFrom("refunds").select((e) => e.fn.coalesce(e.fn.sum<string>("amount"), sql<string>`0`).as("t")).where("payment_id", "=", v.payment_id).as("refunded_seen"),
    ]);

const LOCK_FOR_API_KEY = new PreparedStatement(lockStatement((qc, v: LockValues & { digest: string; key_mode: string }) =>
  qc.selectFrom("api_keys")
    .select(["api_keys.merchant_id as owner_merchant_id", "api_keys.mode as owner_mode", sql<string>`api_keys.merchant_id || ':' || api_keys.mode`.as("scope")])
    .where("api_keys.digest", "=", v.digest)
    .where("api_keys.mode", "=", v.key_mode)
    .where(isActiveKey(v.now))));

const LOCK_FOR_MERCHANT = new PreparedStatement(lockStatement((qc, v: LockValues & { merchant_id: string; caller_mode: string; scope: string }) =>
  qc.selectNoFrom([sql<string>`${v.merchant_id}::text`.as("owner_merchant_id"), sql<string>`${v.caller_mode}::text`.as("owner_mode"), sql<string>`${v.scope}::text`.as("scope")])));

async function findOwnRefund(tx: Tx, caller: MerchantCaller | OperatorCaller, id: string) {
  if (!isId("refund", id)) return undefined;
  let q = db(tx).selectFrom("refunds").select([...REFUND_COLUMNS, "seq"]).where("id", "=", id);
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
    const own = isId("pay", paymentId) && await db(tx).selectFrom("payments").select("id").where("id", "=", paymentId)
      .where("merchant_id", "=", caller.merchantId).where("mode", "=", caller.mode).executeTakeFirst();
    if (!own) throw unknownPayment();
  }
  return keysetPage(limit, query.starting_after, {
    noun: "refunds",
    findCursor: (id) => findOwnRefund(tx, caller, id),
    fetch: (after, take) => {
      let q = db(tx).selectFrom("refunds").select(REFUND_COLUMNS).where("merchant_id", "=", caller.merchantId).where("mode", "=", caller.mode);
      if (paymentId !== undefined) q = q.where("payment_id", "=", paymentId);
      if (after) q = q.where(({ eb, refTuple, tuple }) => eb(refTuple("created_at", "seq"), "<", tuple(after.created_at, after.seq)));
      return q.orderBy("created_at", "desc").orderBy("seq", "desc").limit(take).execute();
    },
    view: toRefundView,
  });
}
