// `paytami links create|deactivate|list|show`: payment links for a merchant (DESIGN §3).
import { InvalidArgumentError, Option, type Command } from "commander";
import { currencyCodec, modeCodec } from "../../../proto/enums.ts";
import type { PaymentLink } from "../../../proto/gen/paytami/v1/link.ts";
import { identifiedPublicLinkJson, linkJson } from "../../../proto/link-json.ts";
import { DESCRIPTIONS, nonBlank, type CommandContext } from "./command.ts";

function positiveInteger(value: string): number {
  const n = /^[1-9][0-9]*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError("It must be a positive integer.");
  return n;
}

function describe(link: PaymentLink): string {
  const json = linkJson(link);
  const amount = json.amount_type === "fixed" ? json.fixed_amount_minor : `${json.min_amount_minor}–${json.max_amount_minor}`;
  const state = json.payable ? "payable" : `not payable (${json.not_payable_reason})`;
  return `${json.id} ${json.mode} "${json.title}" ${json.currency} ${amount}, ${state}, ${json.succeeded_payments} succeeded: ${json.url}`;
}

export function addLinkCommands(program: Command, context: CommandContext): void {
  const links = program.command("links").description(DESCRIPTIONS.links);
  const merchantOptions = (command: Command) =>
    command
      .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
      .addOption(new Option("--mode <mode>", "the link's mode").choices(modeCodec.wireNames).makeOptionMandatory());

  merchantOptions(links.command("create").description("create a payment link: a fixed amount (--amount) or bounds (--min and --max)"))
    .requiredOption("--title <title>", "what the customer pays for", nonBlank)
    .option("--description <text>", "shown on the link page")
    .addOption(new Option("--currency <currency>", "the link's currency").choices(currencyCodec.wireNames).makeOptionMandatory())
    .option("--amount <minor>", 'fixed amount in minor units ("15000" is Q 150.00)')
    .option("--min <minor>", "variable amount: the least the customer may pay")
    .option("--max <minor>", "variable amount: the most the customer may pay")
    .option("--expires-at <iso>", "when the link stops accepting payments, ISO 8601")
    .option("--max-payments <n>", "stop after this many succeeded payments", positiveInteger)
    .option("--success-url <url>", "where customers return after paying (default: the link's done page)")
    .option("--cancel-url <url>", "where customers return when they cancel (default: the link's done page)")
    .action(
      async (options: {
        merchant: string;
        mode: string;
        title: string;
        description?: string;
        currency: string;
        amount?: string;
        min?: string;
        max?: string;
        expiresAt?: string;
        maxPayments?: number;
        successUrl?: string;
        cancelUrl?: string;
      }) => {
        const { link } = await context.core().links.createLink({
          acting_for: { merchant_id: options.merchant, mode: modeCodec.fromWire(options.mode) },
          title: options.title,
          description: options.description,
          currency: options.currency,
          fixed_amount_minor: options.amount,
          min_amount_minor: options.min,
          max_amount_minor: options.max,
          expires_at: options.expiresAt,
          max_payments: options.maxPayments,
          success_url: options.successUrl,
          cancel_url: options.cancelUrl,
        });
        context.print({ json: identifiedPublicLinkJson(link!), text: `Created ${describe(link!)}` });
      },
    );

  links
    .command("deactivate")
    .description("stop a link from accepting payments (final)")
    .argument("<link-id>", "the link (link_…)")
    .action(async (id: string) => {
      const { link } = await context.core().links.deactivateLink({ acting_for: {}, link_id: id });
      context.print({ json: identifiedPublicLinkJson(link!), text: `Deactivated ${describe(link!)}` });
    });

  links
    .command("show")
    .description("show one link with its succeeded payments")
    .argument("<link-id>", "the link (link_…)")
    .action(async (id: string) => {
      const { link } = await context.core().links.getLink({ acting_for: {}, link_id: id });
      context.print({ json: linkJson(link!), text: describe(link!) });
    });

  merchantOptions(links.command("list").description("a merchant's links, newest first"))
    .option("--limit <n>", "at most this many (1 to 100, default 25)", positiveInteger)
    .option("--starting-after <link-id>", "the page after this link")
    .action(async (options: { merchant: string; mode: string; limit?: number; startingAfter?: string }) => {
      const page = await context.core().links.listLinks({
        acting_for: { merchant_id: options.merchant, mode: modeCodec.fromWire(options.mode) },
        limit: options.limit,
        starting_after: options.startingAfter,
      });
      context.print({
        json: { data: page.data.map(linkJson), has_more: page.has_more },
        text: page.data.length === 0 ? "No links." : page.data.map(describe).join("\n"),
      });
    });
}
