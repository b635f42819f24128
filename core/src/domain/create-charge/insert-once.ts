import { db } from "../../db/orm.ts";
import type { MerchantPolicy } from "../charge-policy.ts";
import type { CoreDeps } from "../deps.ts";
import { newId } from "../ids.ts";
import { toPaymentView, type PaymentRow } from "../payment-view.ts";
import type { Tx } from "../unit-of-work.ts";
import type { ChargeOwner } from "./owner-kind.ts";
import type { CheckedCharge } from "./request.ts";
import { createInBatch } from "./batch.ts";

/** One run of the owner kind's creation statement for a charge priced against `policy`. */
export async function insertOnce(
  deps: CoreDeps,
  tx: Tx,
  owner: ChargeOwner,
  idempotencyKey: string,
  policy: MerchantPolicy,
  { draft, fingerprint }: CheckedCharge,
) {
  const now = deps.now();
  const { charge } = draft;
  const payment: PaymentRow = {
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
  const { kind, values: ownerValues } = owner as ChargeOwner<Record<string, unknown>>;
  const values = {
    ...ownerValues,
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
  };
  // Batched only outside a transaction: a batch commits on its own, never as part of a caller's transaction.
  const row =
    deps.config.createBatch.on && !tx.isInTransaction() ? await createInBatch(deps, tx, kind, values) : (await kind.creation.run(db(tx), values)).rows[0];
  return { owner: row, created: row?.created === true, view };
}
