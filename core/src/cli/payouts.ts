// `paytami payouts list|show`: a merchant's payouts (spec 2.6). `simulate payout` makes one.
import { InvalidArgumentError, Option, type Command } from "commander";
import { CoreError } from "../../../proto/core-error.ts";
import { modeCodec } from "../../../proto/enums.ts";
import { payoutJson } from "../../../proto/payout-json.ts";
import { DESCRIPTIONS, type CommandContext } from "./command.ts";
import { describeObject } from "./views.ts";

function pageSize(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("It takes an integer from 1 to 100.");
  return Number(value);
}

export function addPayoutCommands(program: Command, context: CommandContext): void {
  const payouts = program.command("payouts").description(DESCRIPTIONS.payouts);

  payouts
    .command("list")
    .description("list a merchant's payouts in one mode, newest first")
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .addOption(new Option("--mode <mode>", "the mode").choices(modeCodec.wireNames).default("test"))
    .option("--limit <n>", "page size, 1 to 100 (default 25)", pageSize)
    .option("--starting-after <payout-id>", "the last payout of the previous page")
    .action(async (options: { merchant: string; mode: string; limit?: number; startingAfter?: string }) => {
      const page = await context.core().payouts.listPayouts({
        merchant_id: options.merchant,
        mode: modeCodec.fromWire(options.mode),
        limit: options.limit,
        starting_after: options.startingAfter,
      });
      const views = page.data.map(payoutJson);
      context.print({
        json: { data: views, has_more: page.has_more },
        text:
          views.length === 0
            ? "No payouts."
            : views.map((view) => describeObject(view)).join("\n\n") + (page.has_more ? "\n\n(more: --starting-after the last id)" : ""),
      });
    });

  payouts
    .command("show")
    .description("show one payout")
    .argument("<payout-id>", "the payout (payout_…)")
    .action(async (id: string) => {
      const { payout } = await context.core().payouts.getPayout({ id, acting_for: {} });
      if (!payout) throw new CoreError("internal_error", "core returned no payout", true);
      const view = payoutJson(payout);
      context.print({ json: view, text: describeObject(view) });
    });
}
