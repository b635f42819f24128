// `paytami refunds list|show`: a merchant's refunds (DESIGN §3 "Commands not listed").
import { InvalidArgumentError, Option, type Command } from "commander";
import { modeCodec } from "../../../proto/enums.ts";
import type { Refund } from "../../../proto/gen/paytami/v1/refund.ts";
import { refundJson } from "../../../proto/refund-json.ts";
import { DESCRIPTIONS, type CommandContext } from "./command.ts";

function positiveInteger(value: string): number {
  const n = /^[1-9][0-9]*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError("It must be a positive integer.");
  return n;
}

function describe(refund: Refund): string {
  const json = refundJson(refund);
  return `${json.id} ${json.status} ${json.currency} ${json.amount} of ${json.payment_id} (${json.reason}) at ${json.created_at}`;
}

export function addRefundCommands(program: Command, context: CommandContext): void {
  const refunds = program.command("refunds").description(DESCRIPTIONS.refunds);

  refunds
    .command("list")
    .description("a merchant's refunds, newest first")
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .addOption(new Option("--mode <mode>", "the refunds' mode").choices(modeCodec.wireNames).makeOptionMandatory())
    .option("--payment <payment-id>", "only this payment's refunds")
    .option("--limit <n>", "at most this many (1 to 100, default 25)", positiveInteger)
    .option("--starting-after <refund-id>", "the page after this refund")
    .action(async (options: { merchant: string; mode: string; payment?: string; limit?: number; startingAfter?: string }) => {
      const page = await context.core().refunds.listRefunds({
        acting_for: { merchant_id: options.merchant, mode: modeCodec.fromWire(options.mode) },
        payment_id: options.payment,
        limit: options.limit,
        starting_after: options.startingAfter,
      });
      context.print({
        json: { data: page.data.map(refundJson), has_more: page.has_more },
        text: page.data.length === 0 ? "No refunds." : page.data.map(describe).join("\n"),
      });
    });

  refunds
    .command("show")
    .description("show one refund (any merchant's)")
    .argument("<refund-id>", "the refund (refund_…)")
    .action(async (id: string) => {
      const { refund } = await context.core().refunds.getRefund({ acting_for: {}, id });
      context.print({ json: refundJson(refund!), text: describe(refund!) });
    });
}
