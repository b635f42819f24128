// `paytami simulate …`: drive sandbox objects through their state machines from the outside.
import { CoreError } from "../../../proto/core-client.ts";
import { parseCommand, oneOf, expectPositionals, UsageError, type CommandGroup } from "./command.ts";
import { paymentJson } from "../../../proto/payment-json.ts";
import { describeObject } from "./views.ts";

const PAYMENT_STEPS = ["succeed", "fail", "cancel", "expire", "process", "authorize", "settle"] as const;

export const simulate: CommandGroup = {
  name: "simulate",
  usage: [`simulate payment PAY_ID ${PAYMENT_STEPS.join("|")}`],
  async run(args, context) {
    const [sub, ...rest] = args;
    if (sub === "payment") {
      const [paymentId, stepArg] = expectPositionals(parseCommand(rest, {}).positionals, ["PAY_ID", "STEP"]);
      const step = oneOf(stepArg, PAYMENT_STEPS, "STEP");
      const core = context.core();
      const result = await core.admin.simulatePayment({ payment_id: paymentId!, step });
      if (!result.payment) throw new CoreError("internal_error", "core returned no payment", true);
      const view = paymentJson(result.payment);
      return { json: view, text: `${view.id} is now ${view.status}\n${describeObject(view)}` };
    }
    throw new UsageError(`unknown simulate command "${sub ?? ""}"`);
  },
};
