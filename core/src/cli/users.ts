// `paytami users invite|reset-password|list`: who may sign in to a merchant's dashboard (DESIGN §5).
// The URLs are one-use and shown once, to pass on: there is no e-mail sending yet.
import { Option, type Command } from "commander";
import { DESCRIPTIONS, nonBlank, type CommandContext } from "./command.ts";

const ROLES = ["viewer", "developer", "admin", "owner"];

export function addUserCommands(program: Command, context: CommandContext): void {
  const users = program.command("users").description(DESCRIPTIONS.users);

  users
    .command("invite")
    .description("make an e-mail a member of a merchant's dashboard with a role; prints the one-use invite URL (72 h)")
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .requiredOption("--email <email>", "the person's e-mail address", nonBlank)
    .addOption(new Option("--role <role>", "their role").choices(ROLES).makeOptionMandatory())
    .action(async (options: { merchant: string; email: string; role: string }) => {
      const invited = await context.core().admin.inviteUser({ merchant_id: options.merchant, email: options.email, role: options.role });
      const json = { user_id: invited.user_id, email: invited.email, merchant_id: invited.merchant_id, role: invited.role, invite_url: invited.invite_url };
      context.print({
        json,
        text: `Invited ${json.email} as ${json.role} of ${json.merchant_id} (${json.user_id}). Pass on this one-use URL:\n${json.invite_url}`,
      });
    });

  users
    .command("reset-password")
    .description("a one-use URL (1 h) where the user chooses a new password; using it ends every session of theirs")
    .requiredOption("--email <email>", "the user's e-mail address", nonBlank)
    .action(async (options: { email: string }) => {
      const issued = await context.core().admin.resetUserPassword({ email: options.email });
      const json = { user_id: issued.user_id, reset_url: issued.reset_url };
      context.print({ json, text: `Password reset for ${json.user_id}. Pass on this one-use URL:\n${json.reset_url}` });
    });

  users
    .command("list")
    .description("dashboard users and their roles, one line per membership")
    .option("--merchant <merchant-id>", "only this merchant's (mer_…)")
    .action(async (options: { merchant?: string }) => {
      const { data } = await context.core().admin.listUsers({ merchant_id: options.merchant });
      const rows = data.map((m) => ({
        user_id: m.user_id,
        email: m.email,
        merchant_id: m.merchant_id,
        role: m.role,
        status: m.status,
        totp_enabled: m.totp_enabled,
      }));
      const text =
        rows.length === 0
          ? "No dashboard users."
          : rows.map((r) => `${r.email}  ${r.role}  ${r.merchant_id}  ${r.status}${r.totp_enabled ? "  totp" : ""}`).join("\n");
      context.print({ json: { data: rows }, text });
    });
}
