// `paytami simulate …`: drive sandbox objects through their state machines from the outside.
import { Argument, Option, type Command } from "commander";
import { modeCodec } from "../../../proto/enums.ts";
import { chargebackJson, payoutJson } from "../../../proto/payout-json.ts";
import { paymentJson } from "../../../proto/payment-json.ts";
import { SIMULATION_STEP_NAMES } from "../../../proto/simulation-steps.ts";
import { DESCRIPTIONS, type CommandContext } from "./command.ts";
import { CoreError } from "../../../proto/core-error.ts";
import { describeObject } from "./views.ts";

export function addSimulateCommands(program: Command, context: CommandContext): void {
  const simulate = program.command("simulate").description(DESCRIPTIONS.simulate);

  simulate
    .command("payment")
    .description("run one step of the payment state table and print the payment (succeed authorizes and captures; settle runs every settlement step)")
    .argument("<payment-id>", "the payment (pay_…)")
    .addArgument(new Argument("<step>", "the step to run").choices(SIMULATION_STEP_NAMES))
    .action(async (paymentId: string, step: string) => {
      const core = context.core();
      const result = await core.admin.simulatePayment({ payment_id: paymentId, step });
      if (!result.payment) throw new CoreError("internal_error", "core returned no payment", true);
      const view = paymentJson(result.payment);
      context.print({ json: view, text: `${view.id} is now ${view.status}\n${describeObject(view)}` });
    });

  simulate
    .command("chargeback")
    .description("open a chargeback on a captured payment, or win its open one, as the processor would report it; prints the Chargeback")
    .argument("<payment-id>", "the payment (pay_…)")
    .addArgument(new Argument("<action>", "open or win").choices(["open", "win"]))
    .action(async (paymentId: string, action: string) => {
      const { chargeback } = await context.core().payouts.simulateChargeback({ payment_id: paymentId, action });
      if (!chargeback) throw new CoreError("internal_error", "core returned no chargeback", true);
      const view = chargebackJson(chargeback);
      context.print({ json: view, text: `${view.id} is ${view.status} on ${view.payment_id}\n${describeObject(view)}` });
    });

  simulate
    .command("payout")
    .description("pay out a merchant's available balance in one currency now, through the bank's steps; prints the Payout as it ended")
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .requiredOption("--currency <currency>", "the currency (GTQ, USD)")
    .addOption(new Option("--mode <mode>", "the mode").choices(modeCodec.wireNames).default("test"))
    .action(async (options: { merchant: string; currency: string; mode: string }) => {
      const { payout } = await context
        .core()
        .payouts.requestPayout({ merchant_id: options.merchant, mode: modeCodec.fromWire(options.mode), currency: options.currency });
      if (!payout) throw new CoreError("internal_error", "core returned no payout", true);
      const view = payoutJson(payout);
      context.print({ json: view, text: `${view.id} ${view.status}\n${describeObject(view)}` });
    });
}
