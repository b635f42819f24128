// `paytami merchants create`: a merchant with one test and one live API key.
import { currencyCodec, methodTypeCodec, type EnumCodec } from "../../../proto/enums.ts";
import { parseCommand, required, commaList, UsageError, type CommandGroup } from "./command.ts";

function enumList<E extends number>(value: string | undefined, codec: EnumCodec<E, string>, flag: string): E[] {
  return commaList(value).map((item) => {
    const parsed = codec.fromWire(item);
    if (!codec.isKnown(parsed)) throw new UsageError(`${flag} takes ${codec.wireNames.join(", ")} (got "${item}")`);
    return parsed;
  });
}

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
    const created = await core.admin.createMerchant({
      name: required(values.name, "--name"),
      currencies: enumList(values.currencies, currencyCodec, "--currencies"),
      methods: enumList(values.methods, methodTypeCodec, "--methods"),
    });
    return {
      json: { merchant_id: created.merchant_id, test_api_key: created.test_api_key, live_api_key: created.live_api_key },
      text: [`Created merchant ${created.merchant_id}`, `  test key: ${created.test_api_key}`, `  live key: ${created.live_api_key}`].join("\n"),
    };
  },
};
