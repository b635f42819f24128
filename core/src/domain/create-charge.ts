import { sql, type Expression, type QueryCreator, type SelectQueryBuilder, type SqlBool } from "kysely";
import { db, type DB } from "../db/orm.ts";
import { PreparedStatement, statementBuilder } from "../db/prepared.ts";
import { isActiveKey, unauthorized } from "./api-keys.ts";
import type { MerchantCaller, PresentedApiKey } from "./caller.ts";
import { ACCEPTS_EVERYTHING, type Charge, type MerchantPolicy } from "./charge-policy.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { claimKey, replayOrConflict, type IdempotentResult } from "./idempotency.ts";
import { newId } from "./ids.ts";
import { toPaymentView, type PaymentView } from "./payment-view.ts";
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
 * A kind of charge owner: one SELECT yielding at most one ChargeOwnerRow from
 * its own values, used as the first CTE of the creation statement (so
 * resolving the caller costs no extra round trip) and on its own on the slow
 * path. An API key, a merchant session, and next a payment link (which adds its
 * own row lock and scopes idempotency to the link) each define one. Each kind's
 * statements are built and compiled once (see PreparedStatement), so `select`
 * must pass its values through untouched.
 */
export class OwnerKind<V extends Record<string, unknown>> {
  readonly select: (qc: QueryCreator<DB>, values: V) => SelectQueryBuilder<DB, any, ChargeOwnerRow>;
  #lookup: PreparedStatement<V, ChargeOwnerRow> | undefined;
  #creation: PreparedStatement<V & CreationValues, CreationRow> | undefined;

  constructor(select: OwnerKind<V>["select"]) {
    this.select = select;
  }

  /** The owner alone (the slow path, to report errors in order). */
  get lookup(): PreparedStatement<V, ChargeOwnerRow> {
    return (this.#lookup ??= new PreparedStatement((v: V) => this.select(statementBuilder, v)));
  }

  get creation(): PreparedStatement<V & CreationValues, CreationRow> {
    return (this.#creation ??= new PreparedStatement((v: V & CreationValues) => creationStatement(this, v)));
  }
}

/** An owner kind with the values of one request. */
export interface ChargeOwner<V extends Record<string, unknown> = any> {
  kind: OwnerKind<V>;
  values: V;
  /** Names this owner in the process's policy hints (never a secret: a key's digest, a merchant id). */
  hint: string;
}

/** The idempotency scope of a merchant's own requests, whichever credential they come with: (merchant, mode). */
const merchantScope = (merchantId: Expression<string>, mode: Expression<string>) => sql<string>`${merchantId} || ':' || ${mode}`.as("scope");

const API_KEY_OWNER = new OwnerKind<{ digest: string; key_mode: string; now: Date }>((qc, v) =>
  qc
    .selectFrom("api_keys")
    .innerJoin("merchants", "merchants.id", "api_keys.merchant_id")
    .select([
      "api_keys.merchant_id", "api_keys.mode", "merchants.currencies", "merchants.methods",
      merchantScope(sql.ref<string>("api_keys.merchant_id"), sql.ref<string>("api_keys.mode")),
    ])
    .where("api_keys.digest", "=", v.digest)
    .where("api_keys.mode", "=", v.key_mode)
    .where(isActiveKey(v.now)));

/** The owner of an API key that may be used now. */
export function apiKeyOwner(key: PresentedApiKey, now: Date): ChargeOwner {
  return { kind: API_KEY_OWNER, values: { digest: key.digest, key_mode: key.mode, now }, hint: `api_key:${key.digest}` };
}

const MERCHANT_OWNER = new OwnerKind<{ merchant_id: string; caller_mode: string }>((qc, v) =>
  qc
    .selectFrom("merchants")
    .select([
      "merchants.id as merchant_id", sql<string>`${v.caller_mode}::text`.as("mode"), "merchants.currencies", "merchants.methods",
      merchantScope(sql.ref<string>("merchants.id"), sql<string>`${v.caller_mode}::text`),
    ])
    .where("merchants.id", "=", v.merchant_id));

/** A merchant the transport already resolved (e.g. a dashboard session); same scope as its API keys. */
export function merchantOwner(caller: MerchantCaller): ChargeOwner {
  return { kind: MERCHANT_OWNER, values: { merchant_id: caller.merchantId, caller_mode: caller.mode }, hint: `merchant:${caller.merchantId}` };
}

const LINK_OWNER = new OwnerKind<{ link_id: string }>((qc, v) =>
  qc
    .selectFrom("links")
    .innerJoin("merchants", "merchants.id", "links.merchant_id")
    .select(["links.merchant_id", "links.mode", "merchants.currencies", "merchants.methods", "links.id as scope"])
    .where("links.id", "=", v.link_id));

/**
 * A payment link: its merchant and mode, and idempotency scoped to the link itself. It takes no
 * row lock: whether the link is payable was read just before (with the rate-limit count), and the
 * one rule that must hold under concurrency, max_payments, is enforced where payments succeed (the
 * capture locks the link row: payment-transitions.ts), not where they are created.
 */
export function linkOwner(linkId: string): ChargeOwner {
  return { kind: LINK_OWNER, values: { link_id: linkId }, hint: `link:${linkId}` };
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
  /** The owner's policy when the caller has just read it (a link's merchant), instead of the process's hint. */
  policy?: MerchantPolicy | undefined;
}

/**
 * Creates a charge exactly once per idempotency key, in one statement when
 * the request is valid: it resolves the owner, verifies the owner's policy is
 * the one the charge was priced against, claims the key in the owner's scope
 * (waiting for a concurrent holder of the same key) and inserts the payment.
 *
 * The merchant policy is written once, in `check` (priceCharge): the request
 * is first priced against the policy this process last saw for the owner (at
 * first: a merchant that accepts everything); if the owner's policy differs,
 * the statement inserts nothing and returns it, and the charge is priced
 * again against it (a refusal, or a second statement).
 * A request that fails a check before authentication takes the slow path,
 * which authenticates first so the errors keep their order.
 */
export async function createCharge(deps: CoreDeps, tx: Tx, request: ChargeRequest): Promise<IdempotentResult<PaymentView>> {
  const { owner } = request;
  let policy = request.policy ?? policyHints.get(owner.hint) ?? ACCEPTS_EVERYTHING;
  let checked: CheckedCharge;
  try {
    checked = request.check(policy);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // Authenticate first so the errors keep their order; then the merchant's own policy decides
    // (it may refuse earlier in the order, e.g. its currency before the amount, or accept what a stale hint refused).
    const found = (await owner.kind.lookup.run(db(tx), owner.values)).rows[0];
    if (!found) throw unauthorized();
    policy = rememberPolicy(owner.hint, found);
    checked = request.check(policy);
  }
  for (;;) {
    const result = await insertOnce(deps, tx, owner, request.idempotencyKey, policy, checked);
    if (!result.owner) throw unauthorized();
    if (result.created) return { value: result.view, replayed: false };
    if (samePolicy(result.owner, policy)) return replayOrConflict(tx, result.owner.scope, request.idempotencyKey, checked.fingerprint);
    // Priced against the wrong policy: price again against the merchant's own; it refuses, or the next pass inserts.
    policy = rememberPolicy(owner.hint, result.owner);
    checked = request.check(policy);
  }
}

// The policy each owner had when last seen, so a merchant with a narrower policy than
// ACCEPTS_EVERYTHING is priced right the first time and keeps its single round trip. Only a
// hint: the statement checks the policy it was priced against, so a stale hint costs one more
// statement, never a wrong charge. Bounded; the oldest entries go first.
const POLICY_HINTS_MAX = 10_000;
const policyHints = new Map<string, MerchantPolicy>();

function rememberPolicy(hint: string, row: MerchantPolicy): MerchantPolicy {
  const policy = { currencies: [...row.currencies], methods: [...row.methods] };
  policyHints.delete(hint);
  if (samePolicy(policy, ACCEPTS_EVERYTHING)) return policy;
  policyHints.set(hint, policy);
  if (policyHints.size > POLICY_HINTS_MAX) policyHints.delete(policyHints.keys().next().value!);
  return policy;
}

function samePolicy(a: MerchantPolicy, b: MerchantPolicy): boolean {
  const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((v) => y.includes(v));
  return same(a.currencies, b.currencies) && same(a.methods, b.methods);
}

/** The values of one creation statement besides the owner's. */
interface CreationValues {
  currencies: string[];
  methods: string[];
  idempotency_key: string;
  fingerprint: string;
  response: string;
  now: Date;
  key_expires_at: Date;
  payment_id: string;
  status: string;
  currency: string;
  method_type: string;
  amount: string;
  service_fee: string;
  net_amount: string;
  description: string | null;
  customer_email: string | null;
  customer_name: string | null;
  success_url: string;
  cancel_url: string;
  link_id: string | null;
  expires_at: Date;
}

interface CreationRow extends ChargeOwnerRow {
  created: SqlBool;
}

/**
 * The creation statement: resolve the owner; keep it only if its policy is the
 * one the draft was priced against; claim the idempotency key in its scope;
 * insert the payment only where the claim succeeded. Returns the owner (if the
 * credential resolved) and whether the payment was inserted.
 */
function creationStatement<V extends Record<string, unknown>>(kind: OwnerKind<V>, v: V & CreationValues) {
  const policy = { currencies: sql<string[]>`${v.currencies}::text[]`, methods: sql<string[]>`${v.methods}::text[]` };
  return statementBuilder
    .with("owner", (qc) => kind.select(qc, v))
    .with("priced", (qc) =>
      qc.selectFrom("owner").selectAll().where((eb) =>
        eb.and([
          eb("owner.currencies", "@>", policy.currencies), eb("owner.currencies", "<@", policy.currencies),
          eb("owner.methods", "@>", policy.methods), eb("owner.methods", "<@", policy.methods),
        ])))
    .with("claim", (qc) =>
      claimKey(qc, "priced", { key: v.idempotency_key, fingerprint: v.fingerprint, resourceId: v.payment_id, response: v.response, now: v.now, expiresAt: v.key_expires_at }))
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
              sql<string>`${v.payment_id}::text`.as("id"), "priced.merchant_id", "priced.mode", sql<string>`${v.status}::text`.as("status"),
              sql<string>`${v.currency}::text`.as("currency"), sql<string>`${v.method_type}::text`.as("method_type"),
              sql<string>`${v.amount}::bigint`.as("amount"), sql<string>`${v.service_fee}::bigint`.as("service_fee"),
              sql<string>`${v.net_amount}::bigint`.as("net_amount"), sql<string | null>`${v.description}::text`.as("description"),
              sql<string | null>`${v.customer_email}::text`.as("customer_email"), sql<string | null>`${v.customer_name}::text`.as("customer_name"),
              sql<string>`${v.success_url}::text`.as("success_url"), sql<string>`${v.cancel_url}::text`.as("cancel_url"),
              sql<string | null>`${v.link_id}::text`.as("link_id"), sql<Date>`${v.now}::timestamptz`.as("created_at"),
              sql<Date>`${v.now}::timestamptz`.as("updated_at"), sql<Date>`${v.expires_at}::timestamptz`.as("expires_at"),
            ]))
        .returning("payments.id"))
    .selectFrom("owner")
    .select(["owner.merchant_id", "owner.mode", "owner.currencies", "owner.methods", "owner.scope"])
    .select((eb) => eb.exists(eb.selectFrom("created").select("created.id")).as("created"));
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
  const view = toPaymentView(deps.config, payment);
  const response = JSON.stringify(view);
  const { rows } = await owner.kind.creation.run(db(tx), {
    ...owner.values,
    currencies: [...policy.currencies],
    methods: [...policy.methods],
    idempotency_key: idempotencyKey,
    fingerprint,
    response,
    now,
    key_expires_at: new Date(now.getTime() + deps.config.idempotencyTtlMs),
    payment_id: payment.id,
    status: payment.status,
    currency: payment.currency,
    method_type: charge.methodType,
    amount: payment.amount,
    service_fee: payment.service_fee,
    net_amount: payment.net_amount,
    description: draft.description,
    customer_email: draft.customerEmail,
    customer_name: draft.customerName,
    success_url: draft.successUrl,
    cancel_url: draft.cancelUrl,
    link_id: draft.linkId,
    expires_at: new Date(now.getTime() + deps.config.paymentTtlMs),
  });
  const row = rows[0];
  return { owner: row, created: row?.created === true, view };
}
