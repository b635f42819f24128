// `paytami bank-accounts add|list`: the bank accounts a merchant's payouts go to (only the last four digits are ever shown).
import { Option, type Command } from "commander";
import { CoreError } from "../../../proto/core-error.ts";
import { modeCodec } from "../../../proto/enums.ts";
import { bankAccountJson } from "../../../proto/payout-json.ts";
import { DESCRIPTIONS, type CommandContext } from "./command.ts";
import { describeObject } from "./views.ts";

export function addBankAccountCommands(program: Command, context: CommandContext): void {
  const accounts = program.command("bank-accounts").description(DESCRIPTIONS["bank-accounts"]);

  accounts
    .command("add")
    .description("add a bank account; it replaces the merchant's active account of that mode and currency")
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .addOption(new Option("--mode <mode>", "the mode").choices(modeCodec.wireNames).makeOptionMandatory())
    .requiredOption("--currency <currency>", "the currency paid out to it (GTQ, USD)")
    .requiredOption("--number <account-number>", "the account number, 4 to 34 digits (sandbox: ending in 0002 fails with account_closed)")
    .option("--bank-name <name>", "the bank's name")
    .option("--holder <name>", "the account holder (default: the merchant's name)")
    .action(async (options: { merchant: string; mode: string; currency: string; number: string; bankName?: string; holder?: string }) => {
      const { bank_account } = await context.core().payouts.addBankAccount({
        merchant_id: options.merchant,
        mode: modeCodec.fromWire(options.mode),
        currency: options.currency,
        account_number: options.number,
        bank_name: options.bankName,
        holder_name: options.holder,
      });
      if (!bank_account) throw new CoreError("internal_error", "core returned no bank account", true);
      const view = bankAccountJson(bank_account);
      context.print({ json: view, text: `Added ${view.id} (${view.masked})\n${describeObject(view)}` });
    });

  accounts
    .command("list")
    .description("list a merchant's bank accounts, newest first")
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .addOption(new Option("--mode <mode>", "only this mode").choices(modeCodec.wireNames))
    .action(async (options: { merchant: string; mode?: string }) => {
      const { data } = await context.core().payouts.listBankAccounts({
        merchant_id: options.merchant,
        mode: options.mode === undefined ? undefined : modeCodec.fromWire(options.mode),
      });
      const views = data.map(bankAccountJson);
      context.print({ json: { data: views }, text: views.length === 0 ? "No bank accounts." : views.map((view) => describeObject(view)).join("\n\n") });
    });
}
