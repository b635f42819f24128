import type { SimulationStepName } from "../../../proto/simulation-steps.ts";
import type { OperatorCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { authorize, cancel, capture, expire, failPayment, startProcessing } from "./payment-states.ts";
import { transitionPayment, type TransitionStep } from "./payment-transitions.ts";
import type { PaymentView } from "./payment-view.ts";
import { requireSandboxPayment } from "./sandbox-only.ts";
import { settleNow } from "./settlement.ts";
import type { Changes, Tx } from "./unit-of-work.ts";

/** `paytami simulate payment ID STEP`: each step is one row of the state table, except succeed (authorize and capture) and settle (every settlement step). */
export const SIMULATION_STEPS = {
  process: [startProcessing],
  authorize: [authorize],
  // Cards are captured right after authorization; an authorized payment only needs the capture.
  succeed: [(p, at) => (p.status === "authorized" ? null : authorize(p, at)), capture],
  fail: [failPayment],
  cancel: [cancel],
  expire: [expire],
} as const satisfies Record<Exclude<SimulationStepName, "settle">, readonly TransitionStep[]>;

/** Operators only (the caller type says so), test mode only (a live payment moves on the live processor's word alone). */
export async function simulatePayment(
  deps: CoreDeps,
  tx: Tx,
  _caller: OperatorCaller,
  { paymentId, step }: { paymentId: string; step: string },
): Promise<Changes<PaymentView>> {
  if (step !== "settle" && !Object.hasOwn(SIMULATION_STEPS, step)) {
    fail("validation_error", `step must be one of ${[...Object.keys(SIMULATION_STEPS), "settle"].join(", ")}.`);
  }
  await requireSandboxPayment(tx, paymentId, "simulate");
  // Settlement is every step of the settlement table at once, through the same code as the job.
  if (step === "settle") return settleNow(deps, tx, paymentId);
  return transitionPayment(deps, tx, paymentId, SIMULATION_STEPS[step as keyof typeof SIMULATION_STEPS]);
}
