// `paytami keys create|revoke|roll`: extra API keys for a merchant, revoking them, and rolling one
// (a new key, the old one kept working for a while so a deploy can switch over).
import { InvalidArgumentError, Option, type Command } from "commander";
import { modeCodec } from "../../../proto/enums.ts";
import { isDuration, parseDuration } from "../../../proto/runtime/env.ts";
import { DESCRIPTIONS, type CommandContext } from "./command.ts";

/** "0" or a duration of whole seconds ("90s", "1h", "7d"), in seconds; the core checks the range. */
function durationSeconds(value: string): number {
  const ms = value === "0" ? 0 : isDuration(value) ? parseDuration(value) : Number.NaN;
  if (!Number.isInteger(ms / 1000)) throw new InvalidArgumentError(`It takes 0 or a duration of whole seconds such as 30s, 1h, 24h or 7d (got "${value}").`);
  return ms / 1000;
}

export function addKeyCommands(program: Command, context: CommandContext): void {
  const keys = program.command("keys").description(DESCRIPTIONS.keys);

  keys
    .command("create")
    .description("create an API key for a merchant")
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .addOption(new Option("--mode <mode>", "the key's mode").choices(modeCodec.wireNames).makeOptionMandatory())
    .option("--expires-at <iso>", "when the key stops working, ISO 8601 (default: never)")
    .action(async (options: { merchant: string; mode: string; expiresAt?: string }) => {
      const core = context.core();
      const created = await core.admin.createApiKey({
        merchant_id: options.merchant,
        mode: modeCodec.fromWire(options.mode),
        expires_at: options.expiresAt,
      });
      const expiresAt = created.expires_at ?? null;
      const mode = modeCodec.toWire(created.mode);
      context.print({
        json: { id: created.id, api_key: created.api_key, mode, expires_at: expiresAt },
        text: `Created ${mode} key ${created.id}: ${created.api_key} (${expiresAt ? `expires ${expiresAt}` : "does not expire"})`,
      });
    });

  keys
    .command("revoke")
    .description("revoke an API key; it stops working at once")
    .argument("<key-id>", "the key (key_…)")
    .action(async (id: string) => {
      const core = context.core();
      const revoked = await core.admin.revokeApiKey({ id });
      context.print({ json: { id: revoked.id, revoked: revoked.revoked }, text: `Revoked key ${revoked.id}` });
    });

  keys
    .command("roll")
    .description("create a new key of the same merchant and mode; the old one keeps working until --expires-in has passed")
    .argument("<key-id>", "the key to roll (key_…)")
    .requiredOption(
      "--expires-in <duration>",
      "how long the old key keeps working: 0 (stops now) up to API_KEY_ROLL_MAX (default 7d), e.g. 1h, 24h, 3d",
      durationSeconds,
    )
    .action(async (id: string, options: { expiresIn: number }) => {
      const core = context.core();
      const rolled = await core.admin.rollApiKey({ id, expires_in_seconds: options.expiresIn });
      const replacement = rolled.new_key!;
      const mode = modeCodec.toWire(replacement.mode);
      context.print({
        json: {
          id: rolled.id,
          expires_at: rolled.expires_at,
          new_key: { id: replacement.id, api_key: replacement.api_key, mode, expires_at: replacement.expires_at ?? null },
        },
        text: `Rolled key ${rolled.id} (works until ${rolled.expires_at}); new ${mode} key ${replacement.id}: ${replacement.api_key}`,
      });
    });
}
