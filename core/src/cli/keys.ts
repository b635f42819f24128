// `paytami keys create|revoke`: extra API keys for a merchant, and revoking them.
import { Option, type Command } from "commander";
import type { CommandContext } from "./command.ts";

export function addKeyCommands(program: Command, context: CommandContext): void {
  const keys = program.command("keys").description("API keys");

  keys
    .command("create")
    .description("create an API key for a merchant")
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .addOption(new Option("--mode <mode>", "the key's mode").choices(["test", "live"]).makeOptionMandatory())
    .option("--expires-at <iso>", "when the key stops working, ISO 8601 (default: never)")
    .action(async (options: { merchant: string; mode: string; expiresAt?: string }) => {
      const core = context.core();
      const created = await core.internal(core.admin.createApiKey, {
        merchantId: options.merchant,
        mode: options.mode,
        expiresAt: options.expiresAt,
      });
      const expiresAt = created.expiresAt ?? null;
      context.print({
        json: { id: created.id, api_key: created.apiKey, mode: created.mode, expires_at: expiresAt },
        text: `Created ${created.mode} key ${created.id}: ${created.apiKey} (${expiresAt ? `expires ${expiresAt}` : "does not expire"})`,
      });
    });

  keys
    .command("revoke")
    .description("revoke an API key; it stops working at once")
    .argument("<key-id>", "the key (key_…)")
    .action(async (id: string) => {
      const core = context.core();
      const revoked = await core.internal(core.admin.revokeApiKey, { id });
      context.print({ json: { id: revoked.id, revoked: revoked.revoked }, text: `Revoked key ${revoked.id}` });
    });
}
