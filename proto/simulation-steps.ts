// The steps of `paytami simulate payment PAY_ID STEP` (DESIGN §3). The core's table of transitions
// (core/src/domain/simulate-payment.ts) must cover exactly these, the CLI offers them as choices and
// the tests type their calls with them, so a step is added here once. Transport-neutral: the CLI
// may import it, unlike the core's domain code.
export const SIMULATION_STEP_NAMES = ["succeed", "fail", "cancel", "expire", "process", "authorize", "settle"] as const;

export type SimulationStepName = (typeof SIMULATION_STEP_NAMES)[number];
