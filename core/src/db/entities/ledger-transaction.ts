import { defineEntity, p, type TriggerDef } from "@mikro-orm/core";

/** The ledger's tables are append-only: a correction is a new transaction, never an edited or deleted row. */
export const APPEND_ONLY: TriggerDef = {
  name: "append_only",
  timing: "before",
  events: ["update", "delete"],
  forEach: "row",
  body: "raise exception 'the ledger is append-only: % on % refused', tg_op, tg_table_name;",
};

/**
 * One balanced money movement (core/src/domain/ledger.ts): its lines sum to zero. Append-only, like
 * its lines; a correction is a new transaction. Each object
 * that moves money names itself here, and the partial unique indexes make each of its movements
 * happen at most once, whatever retries or concurrent jobs try.
 */
export const LedgerTransaction = defineEntity({
  name: "LedgerTransaction",
  tableName: "ledger_transactions",
  properties: {
    id: p.bigint("string").primary().autoincrement().generated("identity"),
    kind: p
      .text()
      .check(
        "kind in ('capture', 'settlement_batch', 'funds_received', 'release', 'refund', 'chargeback_opened', 'chargeback_won', 'payout_requested', 'payout_completed', 'payout_failed')",
      ),
    merchant_id: p.text(),
    mode: p.text().check("mode in ('test', 'live')"),
    currency: p.text(),
    payment_id: p.text().nullable(),
    refund_id: p.text().nullable(),
    chargeback_id: p.text().nullable(),
    payout_id: p.text().nullable(),
    created_at: p.datetime(3),
  },
  triggers: [APPEND_ONLY],
  indexes: [
    { name: "ledger_transactions_payment_idx", properties: ["payment_id", "id"], where: "payment_id is not null" },
    { name: "ledger_transactions_merchant_idx", properties: ["merchant_id", "mode", "id"] },
  ],
  uniques: [
    {
      name: "ledger_transactions_payment_step_key",
      properties: ["payment_id", "kind"],
      where: "kind in ('capture', 'settlement_batch', 'funds_received', 'release')",
    },
    { name: "ledger_transactions_refund_key", properties: ["refund_id"], where: "refund_id is not null" },
    { name: "ledger_transactions_chargeback_step_key", properties: ["chargeback_id", "kind"], where: "chargeback_id is not null" },
    { name: "ledger_transactions_payout_step_key", properties: ["payout_id", "kind"], where: "payout_id is not null" },
  ],
});
