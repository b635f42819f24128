// `paytami trigger EVENT_TYPE --merchant M`: fire a real event with fixtures, to try a webhook endpoint.
import { Option, type Command } from "commander";
import { modeCodec } from "../../../proto/enums.ts";
import { EVENT_TYPES } from "../../../proto/event-catalog.ts";
import { DESCRIPTIONS, type CommandContext } from "./command.ts";

export function addTriggerCommand(program: Command, context: CommandContext): void {
  program
    .command("trigger")
    .description(DESCRIPTIONS.trigger)
    .argument("<event-type>", `one of ${EVENT_TYPES.join(", ")} `)
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .addOption(new Option("--mode <mode>", "the mode (fixtures are test mode only)").choices(modeCodec.wireNames).default("test"))
    .action(async (type: string, options: { merchant: string; mode: string }) => {
      const fired = await context.core().webhooks.triggerEvent({ merchant_id: options.merchant, mode: modeCodec.fromWire(options.mode), type });
      context.print({
        json: { event_id: fired.event_id, type: fired.type },
        text: `Fired ${fired.type} ${fired.event_id} (about ${fired.object_id})`,
      });
    });
}
