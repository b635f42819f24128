// `paytami merchants create`: a merchant with one test and one live API key.
import { parseCommand, required, commaList, UsageError, type CommandGroup } from "./command.ts";

export const merchants: CommandGroup = {
  name: "merchants",
  usage: ["merchants create --name N [--currencies GTQ,USD] [--methods card,bank_transfer]"],
  async run(args, context) {
    const [sub, ...rest] = args;
    if (sub !== "create") throw new UsageError(`unknown merchants command "${sub ?? ""}"`);
    const { values, positionals } = parseCommand(rest, {
      name: { type: "string" },
      currencies: { type: "string" },
      methods: { type: "string" },
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const core = context.core();
    const created = await core.internal(core.admin.createMerchant, {
      name: required(values.name, "--name"),
      currencies: commaList(values.currencies),
      methods: commaList(values.methods),
    });
    return {
      json: { merchant_id: created.merchantId, test_api_key: created.testApiKey, live_api_key: created.liveApiKey },
      text: [`Created merchant ${created.merchantId}`, `  test key: ${created.testApiKey}`, `  live key: ${created.liveApiKey}`].join("\n"),
    };
  },
};
