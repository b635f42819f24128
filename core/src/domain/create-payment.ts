import { sql } from "kysely";
import { CURRENCIES, METHOD_TYPES } from "../config.ts";
import { db } from "../db/orm.ts";
import { authenticate, isActiveKey, presentedKey, unauthorized, type PresentedKey, type Principal } from "./api-keys.ts";
import { priceCharge, type Charge } from "./charge-policy.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { checkIdempotencyKeyShape, claimKeySql, replayOrConflict, requestFingerprint, requireIdempotencyKey, type IdempotentResult } from "./idempotency.ts";
import { newId } from "./ids.ts";
import { parsePaymentInput, type PaymentInput } from "./payment-input.ts";
import { toPaymentView } from "./payment-view.ts";

export interface CreatePaymentCommand {
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The request body as the client sent it (field names of the public API). */
  body: Record<string, unknown>;
  /** Why the transport could not read the request, if it could not. */
  malformed?: string | undefined;
}

/** Any merchant: the checks that do not depend on which merchant is asking. */
const EVERY_MERCHANT = { currencies: [...CURRENCIES], methods: [...METHOD_TYPES] };

/**
 * POST /v1/payments. Errors come in DESIGN §4's order: Idempotency-Key, key,
 * body shape, currency, method, amount limits.
 *
 * A valid request costs one statement: it authenticates the key, checks the
 * merchant's currencies and methods, claims the idempotency key and inserts
 * the payment. Anything the merchant-independent checks reject takes the slow
 * path, which authenticates first so that the errors keep their order.
 */
export async function createPayment(deps: CoreDeps, command: CreatePaymentCommand): Promise<IdempotentResult> {
  const idempotencyKey = requireIdempotencyKey(command.idempotencyKey);
  const key = presentedKey(command.authorization);
  // Every check after authentication, in order, for `merchant`.
  const check = (merchant: Pick<Principal, "currencies" | "methods">) => {
    checkIdempotencyKeyShape(idempotencyKey);
    if (command.malformed !== undefined) fail("validation_error", command.malformed);
    const input = parsePaymentInput(key.mode, command.body);
    const charge = priceCharge(deps.config, merchant, { currency: input.currency, methodType: input.method_type, amount: BigInt(input.amount) });
    return { input, charge };
  };
  let checked: ReturnType<typeof check>;
  try {
    checked = check(EVERY_MERCHANT);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    check(await authenticate(deps, command.authorization));
    throw error;
  }
  return insertOnce(deps, key, idempotencyKey, checked.input, checked.charge);
}

interface StatementResult {
  merchant_id: string;
  currencies: string[];
  methods: string[];
  revoked_at: Date | null;
  expires_at: Date | null;
  created: number;
}

async function insertOnce(deps: CoreDeps, key: PresentedKey, idempotencyKey: string, input: PaymentInput, charge: Charge): Promise<IdempotentResult> {
  const now = deps.now();
  const payment = {
    id: newId("pay"),
    status: "created",
    currency: charge.currency,
    amount: charge.amount.toString(),
    service_fee: charge.serviceFee.toString(),
    net_amount: charge.netAmount.toString(),
    description: input.description ?? null,
    created_at: now,
  };
  const response = JSON.stringify(toPaymentView(deps.config, payment));
  const fingerprint = requestFingerprint("POST /v1/payments", input);
  const claim = claimKeySql("allowed", { key: idempotencyKey, fingerprint, resourceId: payment.id, response, now, ttlMs: deps.config.idempotencyTtlMs });
  const em = deps.orm.em.fork();
  const { rows } = await sql<StatementResult>`
    with principal as (
      select k.merchant_id, k.mode, k.revoked_at, k.expires_at, m.currencies, m.methods
      from api_keys k join merchants m on m.id = k.merchant_id
      where k.digest = ${key.digest} and k.mode = ${key.mode}
    ), allowed as (
      select merchant_id, mode, merchant_id || ':' || mode as scope from principal
      where revoked_at is null and (expires_at is null or expires_at > ${now}::timestamptz)
        and ${charge.currency}::text = any(currencies) and ${charge.methodType}::text = any(methods)
    ), claim as (${claim}), created as (
      insert into payments (id, merchant_id, mode, status, currency, method_type, amount, service_fee, net_amount,
        description, customer_email, customer_name, success_url, cancel_url, created_at, updated_at, expires_at)
      select ${payment.id}, allowed.merchant_id, allowed.mode, ${payment.status}, ${charge.currency}, ${charge.methodType},
        ${payment.amount}::bigint, ${payment.service_fee}::bigint, ${payment.net_amount}::bigint, ${payment.description}::text,
        ${input.customer?.email ?? null}::text, ${input.customer?.name ?? null}::text, ${input.success_url}, ${input.cancel_url},
        ${now}::timestamptz, ${now}::timestamptz, ${new Date(now.getTime() + deps.config.paymentTtlMs)}::timestamptz
      from allowed join claim on claim.scope = allowed.scope
      returning 1
    )
    select merchant_id, currencies, methods, revoked_at, expires_at, (select count(*)::int from created) as created
    from principal`.execute(db(em));

  const principal = rows[0];
  if (!principal || !isActiveKey(principal, now)) throw unauthorized();
  // Nothing was written unless the merchant takes this currency and method; say which one it does not.
  priceCharge(deps.config, principal, { currency: charge.currency, methodType: charge.methodType, amount: charge.amount });
  if (principal.created === 1) return { response, replayed: false };
  return replayOrConflict(em, `${principal.merchant_id}:${key.mode}`, idempotencyKey, fingerprint);
}
