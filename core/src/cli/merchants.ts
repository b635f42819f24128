// `paytami merchants create`: a merchant with one test and one live API key.
import type { Command } from "commander";
import { commaList, nonBlank, type CommandContext } from "./command.ts";

export function addMerchantCommands(program: Command, context: CommandContext): void {
  const merchants = program.command("merchants").description("merchants and their first API keys");

  merchants
    .command("create")
    .description("create a merchant with one test and one live API key")
    .requiredOption("--name <name>", "the merchant's name", nonBlank)
    .option("--currencies <list>", "enabled currencies, comma-separated (default: all: GTQ,USD)", commaList, [])
    .option("--methods <list>", "enabled methods, comma-separated (default: all: card,bank_transfer)", commaList, [])
    .action(async ({ name, currencies, methods }: { name: string; currencies: string[]; methods: string[] }) => {
      const core = context.core();
      const created = await core.internal(core.admin.createMerchant, { name, currencies, methods });
      context.print({
        json: { merchant_id: created.merchantId, test_api_key: created.testApiKey, live_api_key: created.liveApiKey },
        text: [`Created merchant ${created.merchantId}`, `  test key: ${created.testApiKey}`, `  live key: ${created.liveApiKey}`].join("\n"),
      });
    });
}
