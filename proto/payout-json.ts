import type { BankAccount, Chargeback, Payout } from "./gen/paytami/v1/payout.ts";
import { absentAsNull } from "./optional-fields.ts";

// The public objects of spec 2.5 and 2.6 (and the operator's masked bank account) built from their
// gRPC messages, keys in contract order, absent optional fields as null: the CLI prints these.

/** The Payout: its message's fields in the proto's order (the contract's), each absent one null. */
export function payoutJson(payout: Payout) {
  return absentAsNull(payout);
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

export type PayoutJson = ReturnType<typeof payoutJson>;
export type ChargebackJson = ReturnType<typeof chargebackJson>;
