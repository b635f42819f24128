import { sql, type QueryCreator, type SelectQueryBuilder } from "kysely";
import { db, type DB } from "../db/orm.ts";
import { isActiveKey, unauthorized } from "./api-keys.ts";
import type { MerchantCaller, PresentedApiKey } from "./caller.ts";
import { EVERY_METHOD, type Charge, type MerchantPolicy } from "./charge-policy.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { claimKey, replayOrConflict, type IdempotentResult } from "./idempotency.ts";
import { newId } from "./ids.ts";
import { toPaymentView } from "./payment-view.ts";
import type { Tx } from "./unit-of-work.ts";

/** The merchant a new charge belongs to, its mode, what it accepts, and the idempotency scope of the attempt. */
export interface ChargeOwnerRow {
  merchant_id: string;
  mode: string;
  currencies: string[];
  methods: string[];
  scope: string;
}

/**
 * Where a charge's owner comes from: one SELECT yielding at most one
 * ChargeOwnerRow, used as the first CTE of the creation statement (so
 * resolving the caller costs no extra round trip) and on its own on the slow
 * path. An API key, a merchant session, and next a payment link (which adds its
 * own row lock and scopes idempotency to the link) each supply one.
 */
export type ChargeOwner = (qc: QueryCreator<DB>) => SelectQueryBuilder<DB, any, ChargeOwnerRow>;

/** The owner of an API key that may be used now; idempotency keys are scoped to (merchant, mode). */
export function apiKeyOwner(key: PresentedApiKey, now: Date): ChargeOwner {
  return (qc) =>
    qc
      .selectFrom("api_keys")
      .innerJoin("merchants", "merchants.id", "api_keys.merchant_id")
      .select([
        "api_keys.merchant_id", "api_keys.mode", "merchants.currencies", "merchants.methods",
        sql<string>`api_keys.merchant_id || ':' || api_keys.mode`.as("scope"),
      ])
      .where("api_keys.digest", "=", key.digest)
      .where("api_keys.mode", "=", key.mode)
      .where(isActiveKey(now));
}

/** A merchant the transport already resolved (e.g. a dashboard session); same scope as its API keys. */
export function merchantOwner(caller: MerchantCaller): ChargeOwner {
  return (qc) =>
    qc
      .selectFrom("merchants")
      .select([
        "merchants.id as merchant_id", sql<string>`${caller.mode}::text`.as("mode"), "merchants.currencies", "merchants.methods",
        sql<string>`merchants.id || ':' || ${caller.mode}::text`.as("scope"),
      ])
      .where("merchants.id", "=", caller.merchantId);
}

/** Everything a payment row needs besides its owner. */
export interface PaymentDraft {
  charge: Charge;
  description: string | null;
  customerEmail: string | null;
  customerName: string | null;
  successUrl: string;
  cancelUrl: string;
  linkId: string | null;
}

export interface CheckedCharge {
  draft: PaymentDraft;
  /** Fingerprint of the validated request, bound to the idempotency key. */
  fingerprint: string;
}

export interface ChargeRequest {
  owner: ChargeOwner;
  idempotencyKey: string;
  /**
   * Every check that follows authentication, in the order DESIGN §4 fixes,
   * for a merchant with `policy`; returns the priced draft or throws the
   * first refusal.
   */
  check: (policy: MerchantPolicy) => CheckedCharge;
}

/**
 * Creates a charge exactly once per idempotency key, in one statement when
 * the request is valid: it resolves the owner, verifies the owner's policy is
 * the one the charge was priced against, claims the key in the owner's scope
 * (waiting for a concurrent holder of the same key) and inserts the payment.
 *
 * The merchant policy is written once, in `check` (priceCharge): the request
 * is first priced against a merchant that accepts everything; a merchant with
 * a narrower policy makes the statement insert nothing and return its policy,
 * and the charge is priced again against it (a refusal, or a second statement).
 * A request that fails a check before authentication takes the slow path,
 * which authenticates first so the errors keep their order.
 */
export async function createCharge(deps: CoreDeps, tx: Tx, request: ChargeRequest): Promise<IdempotentResult> {
  let policy = EVERY_METHOD;
  let checked: CheckedCharge;
  try {
    checked = request.check(policy);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const owner = await request.owner(db(tx)).executeTakeFirst();
    if (!owner) throw unauthorized();
    // The merchant's own policy may refuse earlier in the order (its currency before the amount).
    request.check(owner);
    throw error;
  }
  for (;;) {
    const result = await insertOnce(deps, tx, request.owner, request.idempotencyKey, policy, checked);
    if (!result.owner) throw unauthorized();
    if (result.created) return { response: result.response, replayed: false };
    if (samePolicy(result.owner, policy)) return replayOrConflict(tx, result.owner.scope, request.idempotencyKey, checked.fingerprint);
    // Priced against the wrong policy: price again against the merchant's own (throws its refusal).
    policy = result.owner;
    checked = request.check(policy);
  }
}

function samePolicy(a: MerchantPolicy, b: MerchantPolicy): boolean {
  const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((v) => y.includes(v));
  return same(a.currencies, b.currencies) && same(a.methods, b.methods);
}

async function insertOnce(deps: CoreDeps, tx: Tx, owner: ChargeOwner, idempotencyKey: string, policy: MerchantPolicy, { draft, fingerprint }: CheckedCharge) {
  const now = deps.now();
  const { charge } = draft;
  const payment = {
    id: newId("pay"),
    status: "created",
    currency: charge.currency,
    amount: charge.amount.toString(),
    service_fee: charge.serviceFee.toString(),
    net_amount: charge.netAmount.toString(),
    description: draft.description,
    created_at: now,
  };
  const response = JSON.stringify(toPaymentView(deps.config, payment));
  const row = await db(tx)
    .with("owner", owner)
    // Only an owner whose policy is the one the draft was priced against takes part.
    .with("priced", (qc) =>
      qc.selectFrom("owner").selectAll().where((eb) =>
        eb.and([
          eb("owner.currencies", "@>", sql<string[]>`${[...policy.currencies]}::text[]`),
          eb("owner.currencies", "<@", sql<string[]>`${[...policy.currencies]}::text[]`),
          eb("owner.methods", "@>", sql<string[]>`${[...policy.methods]}::text[]`),
          eb("owner.methods", "<@", sql<string[]>`${[...policy.methods]}::text[]`),
        ])))
    .with("claim", (qc) => claimKey(qc, "priced", { key: idempotencyKey, fingerprint, resourceId: payment.id, response, now, ttlMs: deps.config.idempotencyTtlMs }))
    .with("created", (qc) =>
      qc
        .insertInto("payments")
        .columns([
          "id", "merchant_id", "mode", "status", "currency", "method_type", "amount", "service_fee", "net_amount", "description",
          "customer_email", "customer_name", "success_url", "cancel_url", "link_id", "created_at", "updated_at", "expires_at",
        ])
        .expression((eb) =>
          eb
            .selectFrom("priced")
            .innerJoin("claim", "claim.scope", "priced.scope")
            .select([
              eb.val(payment.id).as("id"), "priced.merchant_id", "priced.mode", eb.val(payment.status).as("status"),
              eb.val(charge.currency).as("currency"), eb.val(charge.methodType).as("method_type"),
              sql<string>`${payment.amount}::bigint`.as("amount"), sql<string>`${payment.service_fee}::bigint`.as("service_fee"),
              sql<string>`${payment.net_amount}::bigint`.as("net_amount"), sql<string | null>`${draft.description}::text`.as("description"),
              sql<string | null>`${draft.customerEmail}::text`.as("customer_email"), sql<string | null>`${draft.customerName}::text`.as("customer_name"),
              eb.val(draft.successUrl).as("success_url"), eb.val(draft.cancelUrl).as("cancel_url"), sql<string | null>`${draft.linkId}::text`.as("link_id"),
              sql<Date>`${now}::timestamptz`.as("created_at"), sql<Date>`${now}::timestamptz`.as("updated_at"),
              sql<Date>`${new Date(now.getTime() + deps.config.paymentTtlMs)}::timestamptz`.as("expires_at"),
            ]))
        .returning("payments.id"))
    .selectFrom("owner")
    .select(["owner.merchant_id", "owner.mode", "owner.currencies", "owner.methods", "owner.scope"])
    .select((eb) => eb.exists(eb.selectFrom("created").select("created.id")).as("created"))
    .executeTakeFirst();
  return { owner: row, created: row?.created === true, response };
}
