import { randomInt } from "node:crypto";
import type { OperatorCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import type { LedgerVerification } from "./ledger-verify/invariants.ts";
import { judge } from "./ledger-verify/judge.ts";
import { ledgerPass } from "./ledger-verify/ledger-pass.ts";
import { paymentsPass } from "./ledger-verify/payments-pass.ts";
import { inOneSnapshot } from "./ledger-verify/snapshot.ts";
import type { Tx } from "./unit-of-work.ts";

export type { LedgerChecked, LedgerInvariant, LedgerVerification, LedgerViolation } from "./ledger-verify/invariants.ts";

// `paytami ledger verify`: every invariant of the ledger (README "Ledger"), checked against one
// snapshot of the database (ledger-verify/snapshot.ts), in one pass over each large table whatever its size:
//   1. ledger_lines (no grouping): a fingerprint of Σ lines per transaction and currency, one of the
//      platform_cash credits of refunds and opened chargebacks, and the merchant accounts' total;
//   2. ledger_transactions: a fingerprint of the (payment, kind) pairs of captures and settlement
//      steps; refund and chargeback transactions (through their unique indexes) with the amounts of
//      their rows (passes 1 and 2: ledger-verify/ledger-pass.ts);
//   3. payments: the same (payment, stamp) pairs, net per merchant, mode and currency; the payments
//      whose status says refunded, each against its refunds (exact);
//   4. the balances per merchant, mode and currency, each an index-only sum of its own lines (as the
//      service's merchantBalances sums them), with the refunds, chargebacks and payouts tables' totals
//      (passes 3 and 4: ledger-verify/payments-pass.ts).
// Equalities that would need grouping a large table are compared as fingerprints (ledger-verify/
// fingerprints.ts). When a fingerprint differs, the exact query of that invariant runs and names the
// transactions, payments, refunds or chargebacks (ledger-verify/judge.ts, ledger-verify/exact-*.ts).
// Everything per merchant, mode and currency is exact.

/**
 * Checks every ledger invariant and answers `{ok: true, checked}` or the violations (the first
 * 100 of each kind). When `tx` is no transaction, the two halves of the passes run at once on two
 * connections sharing one exported snapshot; inside a caller's transaction, one after another in it.
 */
export async function verifyLedger(deps: CoreDeps, tx: Tx, caller: OperatorCaller): Promise<LedgerVerification> {
  void caller;
  const seed = BigInt(randomInt(1, 2 ** 47));
  return inOneSnapshot(
    deps,
    tx,
    (first) => ledgerPass(first, seed),
    (second) => paymentsPass(second, seed),
    judge,
  );
}
