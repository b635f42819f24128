// `paytami balances show`: a merchant's balances per currency, sums of its ledger lines.
import { Option, type Command } from "commander";
import { modeCodec } from "../../../proto/enums.ts";
import { DESCRIPTIONS, type CommandContext } from "./command.ts";

export function addBalanceCommands(program: Command, context: CommandContext): void {
  const balances = program.command("balances").description(DESCRIPTIONS.balances);

  balances
    .command("show")
    .description("show a merchant's balances in one mode, per currency (minor units)")
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .addOption(new Option("--mode <mode>", "the mode").choices(modeCodec.wireNames).default("test"))
    .action(async (options: { merchant: string; mode: string }) => {
      const result = await context.core().ledger.getBalances({ merchant_id: options.merchant, mode: modeCodec.fromWire(options.mode) });
      const json = { merchant_id: result.merchant_id, mode: modeCodec.toWire(result.mode), balances: result.balances };
      context.print({
        json,
        text: [
          `${json.merchant_id} (${json.mode})`,
          ...result.balances.map((b) => `  ${b.currency}  pending ${b.pending}  available ${b.available}  in transit ${b.in_transit}`),
        ].join("\n"),
      });
    });
}
