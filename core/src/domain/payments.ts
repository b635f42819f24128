import { sql } from "kysely";
import type { Mode } from "../config.ts";
import { db } from "../db/orm.ts";
import { authenticate, type Principal } from "./api-keys.ts";
import { priceCharge } from "./charge-policy.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { checkIdempotencyKeyShape, createOnce, requestFingerprint, requireIdempotencyKey } from "./idempotency.ts";
import { isId, newId } from "./ids.ts";
import { parsePaymentInput } from "./payment-input.ts";
import { PAYMENT_STATUSES, type PaymentStatus } from "./payment-states.ts";
import { PAYMENT_VIEW_COLUMNS, toPaymentView, type PaymentView } from "./payment-view.ts";

export interface CreatePaymentCommand {
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The request body as the client sent it (field names of the public API). */
  body: Record<string, unknown>;
}

export interface CreatedPayment {
  /** The original response body, verbatim on a replay. */
  response: string;
  replayed: boolean;
}

interface NewPayment {
  id: string; merchant_id: string; mode: Mode; status: PaymentStatus; currency: string; method_type: string;
  amount: string; service_fee: string; net_amount: string; refunded_amount: string; description: string | null;
  customer_email: string | null; customer_name: string | null; success_url: string; cancel_url: string;
  created_at: Date; updated_at: Date; expires_at: Date;
}

const unknownPayment = () => new DomainError("unknown_payment", "No such payment.");

/** POST /v1/payments: idempotency key, auth, shape, currency, method, limits, then one payment per key. */
export async function createPayment(deps: CoreDeps, command: CreatePaymentCommand): Promise<CreatedPayment> {
  const key = requireIdempotencyKey(command.idempotencyKey);
  const principal = await authenticate(deps, command.authorization);
  checkIdempotencyKeyShape(key);
  const input = parsePaymentInput(principal.mode, command.body);
  const charge = priceCharge(deps.config, principal, { currency: input.currency, methodType: input.method_type, amount: BigInt(input.amount) });

  const now = deps.now();
  const row: NewPayment = {
    id: newId("pay"),
    merchant_id: principal.merchantId,
    mode: principal.mode,
    status: "created",
    currency: charge.currency,
    method_type: charge.methodType,
    amount: charge.amount.toString(),
    service_fee: charge.serviceFee.toString(),
    net_amount: charge.netAmount.toString(),
    refunded_amount: "0",
    description: input.description ?? null,
    customer_email: input.customer?.email ?? null,
    customer_name: input.customer?.name ?? null,
    success_url: input.success_url,
    cancel_url: input.cancel_url,
    created_at: now,
    updated_at: now,
    expires_at: new Date(now.getTime() + deps.config.paymentTtlMs),
  };
  const response = JSON.stringify(toPaymentView(deps.config, row));
  return createOnce(
    deps.orm.em.fork(),
    {
      scope: `${principal.merchantId}:${principal.mode}`,
      key,
      fingerprint: requestFingerprint("POST /v1/payments", input),
      resourceId: row.id,
      response,
      now,
      ttlMs: deps.config.idempotencyTtlMs,
    },
    insertPaymentIfClaimed(row),
  );
}

/** The payment insert, guarded by the idempotency claim (explicit casts: the values come through a SELECT). */
function insertPaymentIfClaimed(row: NewPayment) {
  return sql`
    insert into payments (id, merchant_id, mode, status, currency, method_type, amount, service_fee, net_amount,
      refunded_amount, description, customer_email, customer_name, success_url, cancel_url, created_at, updated_at, expires_at)
    select ${row.id}::text, ${row.merchant_id}::text, ${row.mode}::text, ${row.status}::text, ${row.currency}::text,
      ${row.method_type}::text, ${row.amount}::bigint, ${row.service_fee}::bigint, ${row.net_amount}::bigint,
      ${row.refunded_amount}::bigint, ${row.description}::text, ${row.customer_email}::text, ${row.customer_name}::text,
      ${row.success_url}::text, ${row.cancel_url}::text, ${row.created_at}::timestamptz, ${row.updated_at}::timestamptz,
      ${row.expires_at}::timestamptz
    from claim
    returning 1`;
}

async function findOwnPayment(deps: CoreDeps, principal: Principal, id: string) {
  if (!isId("pay", id)) return undefined;
  return db(deps.orm.em.fork())
    .selectFrom("payments")
    .select([...PAYMENT_VIEW_COLUMNS, "seq"])
    .where("id", "=", id)
    .where("merchant_id", "=", principal.merchantId)
    .where("mode", "=", principal.mode)
    .executeTakeFirst();
}

/** GET /v1/payments/{id}: another merchant's or mode's payment answers exactly like a missing one. */
export async function getPayment(deps: CoreDeps, authorization: string | undefined, id: string): Promise<PaymentView> {
  const principal = await authenticate(deps, authorization);
  const row = await findOwnPayment(deps, principal, id);
  if (!row) throw unknownPayment();
  return toPaymentView(deps.config, row);
}

export interface ListPaymentsQuery {
  limit?: string;
  starting_after?: string;
  status?: string;
}

export interface PaymentPage {
  data: PaymentView[];
  has_more: boolean;
}

const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 100;

function parseLimit(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PAGE_SIZE;
  const limit = /^[1-9][0-9]{0,2}$/.test(text) ? Number(text) : 0;
  if (limit < 1 || limit > MAX_PAGE_SIZE) fail("validation_error", `limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  return limit;
}

function parseStatus(text: string | undefined): PaymentStatus | undefined {
  if (text === undefined) return undefined;
  if (!(PAYMENT_STATUSES as readonly string[]).includes(text)) {
    fail("validation_error", `status must be one of ${PAYMENT_STATUSES.join(", ")}.`);
  }
  return text as PaymentStatus;
}

/** GET /v1/payments: newest first, keyset-paginated on (created_at, seq) so inserts never shift pages. */
export async function listPayments(deps: CoreDeps, authorization: string | undefined, query: ListPaymentsQuery): Promise<PaymentPage> {
  const principal = await authenticate(deps, authorization);
  const limit = parseLimit(query.limit);
  const status = parseStatus(query.status);
  let cursor: { created_at: Date; seq: string } | undefined;
  if (query.starting_after !== undefined) {
    cursor = await findOwnPayment(deps, principal, query.starting_after);
    if (!cursor) fail("validation_error", "starting_after must be the id of one of your payments.");
  }
  let q = db(deps.orm.em.fork())
    .selectFrom("payments")
    .select(PAYMENT_VIEW_COLUMNS)
    .where("merchant_id", "=", principal.merchantId)
    .where("mode", "=", principal.mode as Mode);
  if (status) q = q.where("status", "=", status);
  if (cursor) {
    const after = cursor;
    q = q.where(({ eb, refTuple, tuple }) => eb(refTuple("created_at", "seq"), "<", tuple(after.created_at, after.seq)));
  }
  const rows = await q.orderBy("created_at", "desc").orderBy("seq", "desc").limit(limit + 1).execute();
  return { data: rows.slice(0, limit).map((row) => toPaymentView(deps.config, row)), has_more: rows.length > limit };
}
