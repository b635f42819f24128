import type { CoreDeps } from "../domain/deps.ts";
import type { PaymentOperation, TransitionStamp } from "../domain/payment-states.ts";
import { TRANSITIONS } from "../domain/payment-states.ts";
import { transitionPayments } from "../domain/payment-transitions.ts";
import { moveClaimed, type ClaimPolicy, type Tally, type WorkQueue } from "./claim.ts";

// Sandbox settlement (DESIGN §4): captured → pending_settlement → settled_to_paytami →
// available_to_merchant, each step SETTLEMENT_DELAYS[i] after the previous one. Test mode only: live
// settlement is reported by the live processor. Set-based: each claim moves a whole batch with one
// UPDATE, so a backlog of 100 000 payments takes a few dozen statements, not 100 000 transactions.

interface SettlementStep {
  operation: PaymentOperation;
  /** The stamp of the state the step leaves: the delay runs from it. */
  since: TransitionStamp;
  /** Index into SETTLEMENT_DELAYS. */
  delay: number;
}

export const SETTLEMENT_STEPS: readonly SettlementStep[] = [
  { operation: "batchForSettlement", since: "captured_at", delay: 0 },
  { operation: "receiveFunds", since: "pending_settlement_at", delay: 1 },
  { operation: "releaseFunds", since: "settled_to_paytami_at", delay: 2 },
];

export function settlementQueue(deps: Pick<CoreDeps, "config">, step: SettlementStep): WorkQueue<"payments", { id: string }> {
  const delayMs = deps.config.settlementDelaysMs[step.delay] ?? 0;
  return {
    job: "settle_payments",
    table: "payments",
    // payments_settle_*_idx: the partial index of the state the step leaves.
    due: (rows, now) => rows.select("id")
      .where("status", "in", TRANSITIONS[step.operation].from)
      .where("mode", "=", "test")
      .where(step.since, "<=", new Date(now.getTime() - delayMs))
      .orderBy(step.since),
  };
}

/**
 * Runs every settlement step until nothing of it is due (the last step first, so one run moves a
 * payment at most one step even with zero delays). Outcome: the state the payments moved to.
 */
export async function settleDuePayments(deps: CoreDeps, policy: ClaimPolicy): Promise<Tally> {
  const total: Tally = {};
  for (const step of [...SETTLEMENT_STEPS].reverse()) {
    const queue = settlementQueue(deps, step);
    const to = TRANSITIONS[step.operation].to;
    for (;;) {
      const tally = await moveClaimed(deps, queue, policy, async (tx, due) => {
        const { value, events } = await transitionPayments(deps, tx, step.operation, due);
        return { value: { [to]: value }, events };
      });
      const moved = tally[to] ?? 0;
      total[to] = (total[to] ?? 0) + moved;
      if (moved < policy.batch) break;
    }
  }
  return total;
}
