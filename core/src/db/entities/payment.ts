import { defineEntity, p } from "@mikro-orm/core";
import { PAYMENT_STATUSES } from "../../domain/payment-states.ts";
import { Merchant } from "./merchant.ts";

export const Payment = defineEntity({
  name: "Payment",
  tableName: "payments",
  properties: {
    id: p.text().primary(),
    // Tie-breaker for keyset pagination when two payments share created_at.
    seq: p.bigint("string").autoincrement().generated("identity"),
    merchant_id: p.manyToOne(Merchant).fieldName("merchant_id").columnType("text").mapToPk().foreignKeyName("payments_merchant_id_fkey"),
    mode: p.text().check("mode in ('test', 'live')"),
    // The states of the transition table (DESIGN §4), each column a text with a CHECK of them; typed, so the
    // query builder reads a PaymentStatus.
    status: p.enum(PAYMENT_STATUSES),
    status_before_chargeback: p.enum(PAYMENT_STATUSES).nullable(),
    currency: p.text(),
    method_type: p.text(),
    amount: p.bigint("string").check("amount >= 0"),
    service_fee: p.bigint("string").check("service_fee >= 0"),
    net_amount: p.bigint("string").check("net_amount >= 0"),
    // The sum of the payment's refunds, kept by the statement that writes each refund (refunds/write.ts,
    // batch-statement.ts) on the row the refund holds locked: a refund reads its remainder here in O(1)
    // instead of summing the payment's refunds, and the database itself refuses a total above the amount.
    refunded_amount: p.bigint("string").default(0).check("refunded_amount >= 0 and refunded_amount <= amount"),
    description: p.text().nullable(),
    customer_email: p.text().nullable(),
    customer_name: p.text().nullable(),
    success_url: p.text(),
    cancel_url: p.text(),
    link_id: p.text().nullable(),
    created_at: p.datetime(3),
    updated_at: p.datetime(3),
    expires_at: p.datetime(3),
    processing_at: p.datetime(3).nullable(),
    authorized_at: p.datetime(3).nullable(),
    captured_at: p.datetime(3).nullable(),
    failed_at: p.datetime(3).nullable(),
    canceled_at: p.datetime(3).nullable(),
    expired_at: p.datetime(3).nullable(),
    pending_settlement_at: p.datetime(3).nullable(),
    settled_to_paytami_at: p.datetime(3).nullable(),
    available_to_merchant_at: p.datetime(3).nullable(),
    refunded_at: p.datetime(3).nullable(),
    chargeback_opened_at: p.datetime(3).nullable(),
    chargeback_won_at: p.datetime(3).nullable(),
    // What a card attempt leaves behind: never the number, only its brand and last four digits.
    card_brand: p.text().nullable(),
    card_last4: p.text().nullable(),
    // The card asked for a challenge step the customer has not completed yet.
    challenge_pending: p.boolean().default(false),
    // The processor's reference of that challenge: completing it asks the processor, which alone says how it ended.
    challenge_reference: p.text().nullable(),
    // While a processor call for this payment is in flight (claimed in one short transaction, recorded in
    // another), no other attempt, cancel or expiry may start: a lease, so a core that died mid-call frees it.
    attempt_expires_at: p.datetime(3).nullable(),
    // The reference the customer quotes in a bank transfer; set when the transfer is started.
    bank_reference: p.text().nullable(),
  },
  uniques: [
    { name: "payments_seq_key", properties: "seq" },
    { name: "payments_bank_reference_key", properties: "bank_reference" },
  ],
  indexes: [
    // Keyset pagination: newest first, with and without a status filter.
    {
      name: "payments_list_idx",
      columns: [{ name: "merchant_id" }, { name: "mode" }, { name: "created_at", sort: "desc" }, { name: "seq", sort: "desc" }],
    },
    {
      name: "payments_list_status_idx",
      columns: [{ name: "merchant_id" }, { name: "mode" }, { name: "status" }, { name: "created_at", sort: "desc" }, { name: "seq", sort: "desc" }],
    },
    // The dashboard's search by customer e-mail (case-insensitive prefix, so text_pattern_ops; an
    // expression, hence raw) and a link's payments (core/src/domain/payment-filters.ts). The planner
    // ignores a partial index's expression statistics, so `lower(customer_email)` has statistics of
    // its own (payments_customer_email_stats, migration 20261127113000: not declarable here).
    {
      name: "payments_customer_email_idx",
      expression:
        'create index "payments_customer_email_idx" on "payments" ("merchant_id", "mode", lower("customer_email") text_pattern_ops, "created_at" desc, "seq" desc) where "customer_email" is not null',
    },
    {
      name: "payments_link_idx",
      columns: [{ name: "link_id" }, { name: "created_at", sort: "desc" }, { name: "seq", sort: "desc" }],
      where: "link_id is not null",
    },
    // A claim on a link's payment counts the link's other attempts in flight (link-capacity.ts); leases are few and short.
    { name: "payments_link_attempt_idx", properties: "link_id", where: "attempt_expires_at is not null and link_id is not null" },
    // The expiry job scans only payable payments.
    { name: "payments_expiry_idx", properties: "expires_at", where: "status in ('created', 'processing', 'authorized')" },
    // Sandbox jobs: bank transfers waiting for confirmation, and each settlement step's waiting payments.
    // Settlement follows the stamps, not the status: a refunded or disputed payment is still settled
    // by the processor (core/src/jobs/settle-payments.ts).
    {
      name: "payments_bank_transfer_confirm_idx",
      properties: "processing_at",
      where: "status = 'processing' and method_type = 'bank_transfer' and mode = 'test'",
    },
    { name: "payments_settle_captured_idx", properties: "captured_at", where: "captured_at is not null and pending_settlement_at is null and mode = 'test'" },
    {
      name: "payments_settle_pending_idx",
      properties: "pending_settlement_at",
      where: "pending_settlement_at is not null and settled_to_paytami_at is null and mode = 'test'",
    },
    {
      name: "payments_settle_received_idx",
      properties: "settled_to_paytami_at",
      where: "settled_to_paytami_at is not null and available_to_merchant_at is null and mode = 'test'",
    },
  ],
});
