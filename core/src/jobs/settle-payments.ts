import type { CoreDeps } from "../domain/deps.ts";
import { TRANSITIONS } from "../domain/payment-states.ts";
import { awaitingStep, SETTLEMENT_STEPS, settleStep, type SettlementStep } from "../domain/settlement.ts";
import { moveClaimed, type ClaimPolicy, type Tally, type WorkQueue } from "./claim.ts";

// Sandbox settlement (DESIGN §4): each step SETTLEMENT_DELAYS[i] after the previous one. Test mode
// only: live settlement is reported by the live processor. Set-based: each claim moves a whole batch
// with one UPDATE and one ledger INSERT, so a backlog of 100 000 payments takes a few dozen
// statements, not 100 000 transactions.

export function settlementQueue(deps: Pick<CoreDeps, "config">, step: SettlementStep): WorkQueue<"payments", { id: string }> {
  const delayMs = deps.config.settlementDelaysMs[step.delay] ?? 0;
  return {
    job: "settle_payments",
    table: "payments",
    // payments_settle_*_idx: the payments waiting for this step.
    due: (rows, now) =>
      awaitingStep(rows.select("id"), step)
        .where("mode", "=", "test")
        .where(step.since, "<=", new Date(now.getTime() - delayMs))
        .orderBy(step.since),
  };
}

/**
 * Runs every settlement step until nothing of it is due (the last step first, so one run moves a
 * payment at most one step even with zero delays). Outcome: the state the step leads to.
 */
export async function settleDuePayments(deps: CoreDeps, policy: ClaimPolicy): Promise<Tally> {
  const total: Tally = {};
  for (const step of [...SETTLEMENT_STEPS].reverse()) {
    const queue = settlementQueue(deps, step);
    const to = TRANSITIONS[step.operation].to;
    for (;;) {
      const tally = await moveClaimed(deps, queue, policy, async (tx, due) => {
        const { value, events } = await settleStep(deps, tx, step, due);
        return { value: { [to]: value }, events };
      });
      const moved = tally[to] ?? 0;
      total[to] = (total[to] ?? 0) + moved;
      if (moved < policy.batch) break;
    }
  }
  return total;
}
