import type { Tx } from "../unit-of-work.ts";
import { balancesAgainstLines } from "./exact-balances.ts";
import { chargebackChecks } from "./exact-chargebacks.ts";
import { refundChecks, refundedWithoutRefunds, remainderChecks } from "./exact-refunds.ts";
import { missingMovements, unbalancedTransactions } from "./exact-transactions.ts";
import { groupKey, type GroupFacts } from "./group-facts.ts";
import { big, STAMP_KINDS, sumOf, type LedgerChecked, type LedgerVerification, type LedgerViolation } from "./invariants.ts";
import type { LedgerPass } from "./ledger-pass.ts";
import type { PaymentsPass } from "./payments-pass.ts";

/** Compares what the passes found; runs the exact query of each invariant whose fingerprint differs. */
export async function judge(tx: Tx, first: LedgerPass, second: PaymentsPass): Promise<LedgerVerification> {
  const { lines, movements, credited } = first;
  const { balances, paymentGroups, remaindersAgree, tables } = second;
  const violations: LedgerViolation[] = [];
  // A fingerprint that could not be computed (null: an amount too large for it) proves nothing.
  if (lines.f === null || big(lines.f) !== 0n) violations.push(...(await unbalancedTransactions(tx)));
  if (STAMP_KINDS.some((_, k) => big(movements[`k${k}`]) !== sumOf(paymentGroups, `k${k}`))) violations.push(...(await missingMovements(tx)));
  const creditsAgree =
    lines.credits !== null &&
    credited.credits !== null &&
    big(lines.credits) === big(credited.credits) &&
    credited.refund_rows === credited.refund_transactions &&
    credited.refund_rows === credited.refunds_joined &&
    credited.chargeback_rows === credited.chargeback_transactions &&
    credited.chargeback_rows === credited.chargebacks_joined;
  if (!creditsAgree) violations.push(...(await refundChecks(tx)), ...(await chargebackChecks(tx)));
  if (!remaindersAgree) violations.push(...(await remainderChecks(tx)), ...(await refundedWithoutRefunds(tx)));

  // 4: per merchant, mode and currency, the balances against the lines' totals of pass 1 and
  // against the payments, refunds, chargebacks and payouts tables.
  const facts = new Map<string, GroupFacts>();
  const factsOf = (g: { merchant_id: string; mode: string; currency: string }): GroupFacts => {
    let f = facts.get(groupKey(g));
    if (!f) {
      f = {
        merchant_id: g.merchant_id,
        mode: g.mode,
        currency: g.currency,
        pending: 0n,
        available: 0n,
        in_transit: 0n,
        net: 0n,
        refunds: 0n,
        open_chargebacks: 0n,
        open_chargeback_count: 0,
        completed_payouts: 0n,
      };
      facts.set(groupKey(g), f);
    }
    return f;
  };
  for (const b of balances) Object.assign(factsOf(b), { pending: big(b.pending), available: big(b.available), in_transit: big(b.in_transit) });
  if ((["pending", "available", "in_transit"] as const).reduce((sum, field) => sum + sumOf(balances, field), 0n) !== big(lines.merchant_total)) {
    violations.push(...(await balancesAgainstLines(tx, facts)));
  }
  for (const row of paymentGroups) factsOf(row).net = big(row.net);
  let payouts = 0;
  for (const row of tables) {
    const f = factsOf(row);
    if (row.source === "refunds") f.refunds = big(row.total);
    else if (row.source === "chargebacks") Object.assign(f, { open_chargebacks: big(row.total), open_chargeback_count: Number(row.n) });
    else {
      f.completed_payouts = big(row.total);
      payouts += Number(row.n);
    }
  }
  for (const f of [...facts.values()].sort((a, b) => groupKey(a).localeCompare(groupKey(b)))) {
    const where = { merchant_id: f.merchant_id, mode: f.mode, currency: f.currency };
    const label = `${f.merchant_id} ${f.mode} ${f.currency}`;
    if (f.available < 0n && f.open_chargeback_count === 0) {
      violations.push({
        invariant: "available_not_negative",
        ...where,
        account: "merchant_available",
        expected: ">= 0",
        actual: f.available.toString(),
        message: `${label}: available balance ${f.available} is below zero with no open chargeback`,
      });
    }
    const expected = f.net - f.refunds - f.open_chargebacks - f.completed_payouts;
    const actual = f.pending + f.available + f.in_transit;
    if (expected !== actual) {
      violations.push({
        invariant: "merchant_total",
        ...where,
        expected: expected.toString(),
        actual: actual.toString(),
        message: `${label}: pending + available + in_transit = ${actual}, but net ${f.net} − refunds ${f.refunds} − open chargebacks ${f.open_chargebacks} − completed payouts ${f.completed_payouts} = ${expected}`,
      });
    }
  }

  const checked: LedgerChecked = {
    transactions: Number(movements.transactions),
    lines: Number(lines.lines),
    payments: Number(sumOf(paymentGroups, "payments")),
    captured_payments: Number(sumOf(paymentGroups, "captured")),
    refunds: Number(credited.refund_rows),
    chargebacks: Number(credited.chargeback_rows),
    payouts,
    balances: facts.size,
  };
  return violations.length === 0 ? { ok: true, checked } : { ok: false, checked, violations };
}
