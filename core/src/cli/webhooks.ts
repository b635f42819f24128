// `paytami webhooks create|list|update|rotate|delete`: a merchant's webhook endpoints.
import { InvalidArgumentError, Option, type Command } from "commander";
import { CoreError } from "../../../proto/core-error.ts";
import { modeCodec } from "../../../proto/enums.ts";
import { EVENT_TYPES } from "../../../proto/event-catalog.ts";
import type { WebhookEndpoint } from "../../../proto/gen/paytami/v1/webhook.ts";
import { DESCRIPTIONS, type CommandContext } from "./command.ts";
import { describeObject } from "./views.ts";

/** "payment.succeeded,payment.failed"; the core refuses unknown types, so they are passed on as typed. */
function eventList(value: string): string[] {
  const events = value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  if (events.length === 0) throw new InvalidArgumentError(`It takes a comma-separated list of ${EVENT_TYPES.join(", ")}.`);
  return events;
}

function endpointJson(endpoint: WebhookEndpoint | undefined) {
  if (!endpoint) throw new CoreError("internal_error", "core returned no endpoint", true);
  return {
    id: endpoint.id,
    merchant_id: endpoint.merchant_id,
    mode: modeCodec.toWire(endpoint.mode),
    url: endpoint.url,
    enabled_events: endpoint.enabled_events,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabled_reason ?? null,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
    previous_secret_expires_at: endpoint.previous_secret_expires_at ?? null,
  };
}

const eventsText = (events: readonly string[]) => (events.length === 0 ? "every event" : events.join(", "));

export function addWebhookCommands(program: Command, context: CommandContext): void {
  const webhooks = program.command("webhooks").description(DESCRIPTIONS.webhooks);
  const modeOption = () => new Option("--mode <mode>", "the mode").choices(modeCodec.wireNames).makeOptionMandatory();

  webhooks
    .command("create")
    .description("register a webhook endpoint; prints its signing secret (shown only here and on rotate)")
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .addOption(modeOption())
    .requiredOption(
      "--url <url>",
      "where events are POSTed: a public address (loopback too in test mode where WEBHOOK_ALLOW_LOOPBACK is on); https in live mode",
    )
    .option("--events <types>", `comma-separated event types (default: every event): ${EVENT_TYPES.join(", ")}`, eventList)
    .action(async (options: { merchant: string; mode: string; url: string; events?: string[] }) => {
      const created = await context.core().webhooks.createEndpoint({
        merchant_id: options.merchant,
        mode: modeCodec.fromWire(options.mode),
        url: options.url,
        enabled_events: options.events ?? [],
      });
      const endpoint = endpointJson(created.endpoint);
      context.print({
        json: { id: endpoint.id, url: endpoint.url, enabled_events: endpoint.enabled_events, secret: created.secret },
        text: `Created endpoint ${String(endpoint.id)} for ${eventsText(created.endpoint!.enabled_events)}\n  secret  ${created.secret}`,
      });
    });

  webhooks
    .command("list")
    .description("list a merchant's endpoints in one mode, newest first")
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .addOption(modeOption())
    .action(async (options: { merchant: string; mode: string }) => {
      const { data } = await context.core().webhooks.listEndpoints({ merchant_id: options.merchant, mode: modeCodec.fromWire(options.mode) });
      const endpoints = data.map(endpointJson);
      context.print({
        json: { data: endpoints },
        text: endpoints.length === 0 ? "No endpoints." : endpoints.map((endpoint) => describeObject(endpoint)).join("\n\n"),
      });
    });

  webhooks
    .command("update")
    .description("change an endpoint's subscribed events, or disable / enable it")
    .argument("<endpoint-id>", "the endpoint (we_…)")
    .option("--events <types>", "subscribe to these event types only", eventList)
    .option("--all-events", "subscribe to every event type")
    .option("--enable", "enable the endpoint (clears the reason it was disabled)")
    .option("--disable", "disable the endpoint: nothing is delivered to it until enabled")
    .action(async (id: string, options: { events?: string[]; allEvents?: boolean; enable?: boolean; disable?: boolean }) => {
      if (options.events && options.allEvents) throw new InvalidArgumentError("Give --events or --all-events, not both.");
      if (options.enable && options.disable) throw new InvalidArgumentError("Give --enable or --disable, not both.");
      const types = options.allEvents ? [] : options.events;
      const enabled = options.enable ? true : options.disable ? false : undefined;
      const updated = await context.core().webhooks.updateEndpoint({ id, enabled_events: types && { types }, enabled });
      const endpoint = endpointJson(updated.endpoint);
      context.print({ json: endpoint, text: `Updated endpoint ${id}\n${describeObject(endpoint)}` });
    });

  webhooks
    .command("rotate")
    .description("make a new signing secret; the previous one keeps signing for 24 hours")
    .argument("<endpoint-id>", "the endpoint (we_…)")
    .action(async (id: string) => {
      const rotated = await context.core().webhooks.rotateSecret({ id });
      const endpoint = endpointJson(rotated.endpoint);
      context.print({
        json: { id, secret: rotated.secret, previous_secret_expires_at: endpoint.previous_secret_expires_at },
        text: `Rotated the secret of ${id}; the previous one signs until ${String(endpoint.previous_secret_expires_at)}\n  secret  ${rotated.secret}`,
      });
    });

  webhooks
    .command("delete")
    .description("delete an endpoint; nothing more is delivered to it")
    .argument("<endpoint-id>", "the endpoint (we_…)")
    .action(async (id: string) => {
      const deleted = await context.core().webhooks.deleteEndpoint({ id });
      context.print({ json: { id: deleted.id, deleted: deleted.deleted }, text: `Deleted endpoint ${deleted.id}` });
    });
}
