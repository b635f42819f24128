import type { Balance } from "../ledger.ts";

/** What verify knows of one (merchant, mode, currency): its balances and the totals they must agree with. */
export interface GroupFacts extends Omit<Balance, "currency"> {
  merchant_id: string;
  mode: string;
  currency: string;
  net: bigint;
  refunds: bigint;
  open_chargebacks: bigint;
  open_chargeback_count: number;
  completed_payouts: bigint;
}

export const groupKey = (g: { merchant_id: string; mode: string; currency: string }) => `${g.merchant_id}\u0000${g.mode}\u0000${g.currency}`;
