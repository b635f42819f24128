// `paytami keys create|revoke`: extra API keys for a merchant, and revoking them.
import { modeCodec } from "../../../proto/enums.ts";
import { parseCommand, required, oneOf, expectPositionals, UsageError, type CommandGroup } from "./command.ts";

const MODES = ["test", "live"] as const;

export const keys: CommandGroup = {
  name: "keys",
  usage: ["keys create --merchant M --mode test|live [--expires-at ISO]", "keys revoke KEY_ID"],
  async run(args, context) {
    const [sub, ...rest] = args;
    if (sub === "create") {
      const { values, positionals } = parseCommand(rest, {
        merchant: { type: "string" },
        mode: { type: "string" },
        "expires-at": { type: "string" },
      });
      expectPositionals(positionals, []);
      const merchantId = required(values.merchant, "--merchant");
      const mode = oneOf(values.mode, MODES, "--mode");
      const core = context.core();
      const created = await core.admin.createApiKey({ merchant_id: merchantId, mode: modeCodec.fromWire(mode), expires_at: values["expires-at"] });
      const expiresAt = created.expires_at ?? null;
      const createdMode = modeCodec.toWire(created.mode);
      return {
        json: { id: created.id, api_key: created.api_key, mode: createdMode, expires_at: expiresAt },
        text: `Created ${createdMode} key ${created.id}: ${created.api_key} (${expiresAt ? `expires ${expiresAt}` : "does not expire"})`,
      };
    }
    if (sub === "revoke") {
      const [id] = expectPositionals(parseCommand(rest, {}).positionals, ["KEY_ID"]);
      const core = context.core();
      const revoked = await core.admin.revokeApiKey({ id: id! });
      return { json: { id: revoked.id, revoked: revoked.revoked }, text: `Revoked key ${revoked.id}` };
    }
    throw new UsageError(`unknown keys command "${sub ?? ""}"`);
  },
};
