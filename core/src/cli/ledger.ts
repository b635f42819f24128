// `paytami ledger verify|transactions`: the double-entry ledger's invariants, and a payment's ledger transactions.
import type { Command } from "commander";
import { DESCRIPTIONS, ResultIsFailure, type CommandContext } from "./command.ts";

export function addLedgerCommands(program: Command, context: CommandContext): void {
  const ledger = program.command("ledger").description(DESCRIPTIONS.ledger);

  ledger
    .command("verify")
    .description('check every invariant of the ledger; prints {"ok":true,"checked":{…}}, or {"ok":false,"violations":[…]} and exits 1')
    .action(async () => {
      const result = await context.core().ledger.verifyLedger({});
      const checked = result.checked!;
      if (result.ok) {
        context.print({
          json: { ok: true, checked },
          text:
            `ledger ok: ${checked.transactions} transactions, ${checked.lines} lines, ${checked.payments} payments, ${checked.refunds} refunds, ` +
            `${checked.chargebacks} chargebacks, ${checked.payouts} payouts, ${checked.balances} balances checked`,
        });
        return;
      }
      context.print({
        json: { ok: false, violations: result.violations },
        text: [`ledger NOT ok: ${result.violations.length} violation(s)`, ...result.violations.map((v) => `  ${v.invariant}: ${v.message}`)].join("\n"),
      });
      throw new ResultIsFailure("the ledger has violations");
    });

  ledger
    .command("transactions")
    .description("list a payment's ledger transactions with their lines, oldest first")
    .argument("<payment-id>", "the payment (pay_…)")
    .action(async (paymentId: string) => {
      const result = await context.core().ledger.listPaymentLedger({ payment_id: paymentId });
      context.print({
        json: { payment_id: result.payment_id, transactions: result.transactions },
        text:
          result.transactions.length === 0
            ? `${result.payment_id} has no ledger transactions`
            : result.transactions
                .map((t) => [`${t.id} ${t.kind} ${t.created_at}`, ...t.lines.map((l) => `  ${l.account.padEnd(22)} ${l.amount.padStart(14)}`)].join("\n"))
                .join("\n"),
      });
    });
}
