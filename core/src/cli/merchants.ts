// `paytami merchants create`: a merchant with one test and one live API key; `set-embed-origins` and
// `set-return-origins`: the merchant's two origin lists.
import { Option, type Command } from "commander";
import { currencyCodec, methodTypeCodec } from "../../../proto/enums.ts";
import type { Currency, MethodType } from "../../../proto/gen/paytami/v1/enums.ts";
import { DESCRIPTIONS, enumList, nonBlank, type CommandContext } from "./command.ts";

/** Both origin lists' request and answer have this shape (admin.proto). */
interface SetOriginsRequest {
  merchant_id: string;
  origins: string[];
}

export function addMerchantCommands(program: Command, context: CommandContext): void {
  const merchants = program.command("merchants").description(DESCRIPTIONS.merchants);

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

  const originsCommand = (name: string, description: string, example: string, noun: string, set: (request: SetOriginsRequest) => Promise<SetOriginsRequest>) =>
    merchants
      .command(name)
      .description(description)
      .argument("<merchant>", "merchant id (mer_…)")
      .requiredOption("--origins <list>", `comma-separated origins, e.g. ${example}; "" clears them`)
      .action(async (merchantId: string, { origins }: { origins: string }) => {
        const list = origins
          .split(",")
          .map((o) => o.trim())
          .filter((o) => o !== "");
        const result = await set({ merchant_id: merchantId, origins: list });
        context.print({
          json: { merchant_id: result.merchant_id, origins: result.origins },
          text: result.origins.length
            ? `${noun} of ${result.merchant_id}:\n${result.origins.map((o) => `  ${o}`).join("\n")}`
            : `${result.merchant_id} has no ${noun.toLowerCase()}`,
        });
      });

  originsCommand(
    "set-embed-origins",
    "replace the https origins allowed to frame the merchant's live embedded checkout",
    "https://shop.example,https://www.shop.example",
    "Embed origins",
    (request) => context.core().admin.setEmbedOrigins(request),
  );
  originsCommand(
    "set-return-origins",
    "replace the origins a public link pay may name in success_url/cancel_url (besides the link's own URLs); http ones apply in test mode only",
    "https://shop.example,http://localhost:3000",
    "Return origins",
    (request) => context.core().admin.setReturnOrigins(request),
  );
}
