import { db } from "../../db/orm.ts";
import { MERCHANT_ACCOUNTS } from "../ledger.ts";
import type { Tx } from "../unit-of-work.ts";
import { groupKey, type GroupFacts } from "./group-facts.ts";
import type { LedgerViolation } from "./invariants.ts";

/** The exact form of the balances check: each group and account where the reported balance is not the sum of lines. */
export async function balancesAgainstLines(tx: Tx, facts: Map<string, GroupFacts>): Promise<LedgerViolation[]> {
  const sums = await db(tx)
    .selectFrom("ledger_lines")
    .select((eb) => ["merchant_id", "mode", "currency", "account", eb.cast<string>(eb.fn.sum("amount"), "text").as("total")])
    .where("account", "in", MERCHANT_ACCOUNTS)
    .groupBy(["merchant_id", "mode", "currency", "account"])
    .orderBy("merchant_id")
    .orderBy("mode")
    .orderBy("currency")
    .orderBy("account")
    .execute();
  const field = { merchant_pending: "pending", merchant_available: "available", merchant_in_transit: "in_transit" } as const;
  const seen = new Set<string>();
  const violations: LedgerViolation[] = [];
  const compare = (merchant_id: string, mode: string, currency: string, account: keyof typeof field, lineSum: bigint) => {
    const f = facts.get(groupKey({ merchant_id, mode, currency }));
    const reportedValue = f ? f[field[account]] : 0n;
    if (reportedValue === lineSum) return;
    violations.push({
      invariant: "balances_equal_lines",
      merchant_id,
      mode,
      currency,
      account,
      expected: lineSum.toString(),
      actual: reportedValue.toString(),
      message: `${merchant_id} ${mode} ${currency}: the reported ${field[account]} balance is ${reportedValue}, its lines sum to ${lineSum}`,
    });
  };
  for (const s of sums) {
    seen.add(`${groupKey(s)}\u0000${s.account}`);
    compare(s.merchant_id, s.mode, s.currency, s.account as keyof typeof field, BigInt(s.total));
  }
  for (const f of facts.values()) {
    for (const account of Object.keys(field) as Array<keyof typeof field>) {
      if (!seen.has(`${groupKey(f)}\u0000${account}`)) compare(f.merchant_id, f.mode, f.currency, account, 0n);
    }
  }
  return violations;
}
