// `paytami merchants create`: a merchant with one test and one live API key.
import { Option, type Command } from "commander";
import { currencyCodec, methodTypeCodec } from "../../../proto/enums.ts";
import type { Currency, MethodType } from "../../../proto/gen/paytami/v1/enums.ts";
import { enumList, nonBlank, type CommandContext } from "./command.ts";

export function addMerchantCommands(program: Command, context: CommandContext): void {
  const merchants = program.command("merchants").description("merchants and their first API keys");

  merchants
    .command("create")
    .description("create a merchant with one test and one live API key")
    .requiredOption("--name <name>", "the merchant's name", nonBlank)
    // An empty list means every supported one (admin.proto).
    .addOption(
      new Option("--currencies <list>", "enabled currencies, comma-separated")
        .argParser(enumList(currencyCodec))
        .default([], `all: ${currencyCodec.wireNames.join(",")}`),
    )
    .addOption(
      new Option("--methods <list>", "enabled methods, comma-separated")
        .argParser(enumList(methodTypeCodec))
        .default([], `all: ${methodTypeCodec.wireNames.join(",")}`),
    )
    .action(async ({ name, currencies, methods }: { name: string; currencies: Currency[]; methods: MethodType[] }) => {
      const core = context.core();
      const created = await core.admin.createMerchant({ name, currencies, methods });
      context.print({
        json: { merchant_id: created.merchant_id, test_api_key: created.test_api_key, live_api_key: created.live_api_key },
        text: [`Created merchant ${created.merchant_id}`, `  test key: ${created.test_api_key}`, `  live key: ${created.live_api_key}`].join("\n"),
      });
    });

  merchants
    .command("set-embed-origins")
    .description("replace the https origins allowed to frame the merchant's live embedded checkout")
    .argument("<merchant>", "merchant id (mer_…)")
    .requiredOption("--origins <list>", "comma-separated https origins, e.g. https://shop.example,https://www.shop.example; \"\" clears them")
    .action(async (merchantId: string, { origins }: { origins: string }) => {
      const list = origins.split(",").map((o) => o.trim()).filter((o) => o !== "");
      const set = await context.core().admin.setEmbedOrigins({ merchant_id: merchantId, origins: list });
      context.print({
        json: { merchant_id: set.merchant_id, origins: set.origins },
        text: set.origins.length ? `Embed origins of ${set.merchant_id}:\n${set.origins.map((o) => `  ${o}`).join("\n")}` : `${set.merchant_id} has no embed origins`,
      });
    });
}
