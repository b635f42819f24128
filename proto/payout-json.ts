import type { BankAccount, Chargeback, Payout } from "./gen/paytami/v1/payout.ts";

// The public objects of spec 2.5 and 2.6 (and the operator's masked bank account) built from their
// gRPC messages, keys in contract order, absent optional fields as null: the CLI prints these.

export function payoutJson(payout: Payout) {
  return {
    id: payout.id,
    currency: payout.currency,
    amount: payout.amount,
    status: payout.status,
    bank_account_id: payout.bank_account_id,
    bank_account_masked: payout.bank_account_masked,
    requested_at: payout.requested_at,
    processing_at: payout.processing_at ?? null,
    sent_to_bank_at: payout.sent_to_bank_at ?? null,
    completed_at: payout.completed_at ?? null,
    failed_at: payout.failed_at ?? null,
    canceled_at: payout.canceled_at ?? null,
    failure_reason: payout.failure_reason ?? null,
  };
}

export function chargebackJson(chargeback: Chargeback) {
  return { id: chargeback.id, payment_id: chargeback.payment_id, amount: chargeback.amount, currency: chargeback.currency, status: chargeback.status };
}

export function bankAccountJson(account: BankAccount) {
  return {
    id: account.id,
    currency: account.currency,
    bank_name: account.bank_name,
    holder_name: account.holder_name,
    masked: account.masked,
    active: account.active,
    created_at: account.created_at,
  };
}
