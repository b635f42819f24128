// `paytami simulate …`: drive sandbox objects through their state machines from the outside.
import { Argument, type Command } from "commander";
import { paymentJson } from "../../../proto/payment-json.ts";
import { SIMULATION_STEP_NAMES } from "../../../proto/simulation-steps.ts";
import type { CommandContext } from "./command.ts";
import { CoreError } from "../../../proto/core-client.ts";
import { describeObject } from "./views.ts";

export function addSimulateCommands(program: Command, context: CommandContext): void {
  const simulate = program.command("simulate").description("move sandbox objects through their states");

  simulate
    .command("payment")
    .description(
      "run one step of the payment state table and print the payment (succeed authorizes and captures; settle runs every settlement step)",
    )
    .argument("<payment-id>", "the payment (pay_…)")
    .addArgument(new Argument("<step>", "the step to run").choices(SIMULATION_STEP_NAMES))
    .action(async (paymentId: string, step: string) => {
      const core = context.core();
      const result = await core.admin.simulatePayment({ payment_id: paymentId, step });
      if (!result.payment) throw new CoreError("internal_error", "core returned no payment", true);
      const view = paymentJson(result.payment);
      context.print({ json: view, text: `${view.id} is now ${view.status}\n${describeObject(view)}` });
    });
}
