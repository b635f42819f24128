// `paytami keys create|revoke`: extra API keys for a merchant, and revoking them.
import { Option, type Command } from "commander";
import { modeCodec } from "../../../proto/enums.ts";
import { DESCRIPTIONS, type CommandContext } from "./command.ts";

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
}
