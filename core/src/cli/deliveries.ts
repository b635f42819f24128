// `paytami deliveries list|show|replay`: webhook deliveries, their attempts, and replaying them.
import { InvalidArgumentError, Option, type Command } from "commander";
import { CoreError } from "../../../proto/core-error.ts";
import { modeCodec } from "../../../proto/enums.ts";
import { absentAsNull } from "../../../proto/optional-fields.ts";
import type { Attempt, Delivery } from "../../../proto/gen/paytami/v1/delivery.ts";
import { DESCRIPTIONS, type CommandContext } from "./command.ts";

/** A delivery as the message has it (fields in the proto's order), absent fields null, the mode as text. */
function deliveryJson(delivery: Delivery | undefined) {
  if (!delivery) throw new CoreError("internal_error", "core returned no delivery", true);
  return { ...absentAsNull(delivery), mode: modeCodec.toWire(delivery.mode) };
}

const attemptJson = (attempt: Attempt) => absentAsNull(attempt);

type DeliveryJson = ReturnType<typeof deliveryJson>;

const outcomeText = (d: DeliveryJson) => (d.last_http_status !== null ? String(d.last_http_status) : String(d.last_error ?? "-"));
const deliveryLine = (d: DeliveryJson) =>
  `${String(d.id)}  ${String(d.event_id)} ${String(d.event_type)} → ${String(d.endpoint_id)}  ${String(d.status)} after ${String(d.attempt_count)} attempt(s) (last: ${outcomeText(d)})`;

function positiveInt(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError("It must be a positive integer.");
  return Number(value);
}

export function addDeliveryCommands(program: Command, context: CommandContext): void {
  const deliveries = program.command("deliveries").description(DESCRIPTIONS.deliveries);

  deliveries
    .command("list")
    .description("an endpoint's or an event's deliveries, newest first")
    .option("--endpoint <endpoint-id>", "the endpoint (we_…)")
    .option("--event <event-id>", "the event (evt_…)")
    .addOption(new Option("--status <status>", "only deliveries in this status").choices(["pending", "succeeded", "failed"]))
    .option("--limit <n>", "at most this many (1–100, default 25)", positiveInt)
    .action(async (options: { endpoint?: string; event?: string; status?: string; limit?: number }) => {
      const found = await context.core().deliveries.listDeliveries({
        endpoint_id: options.endpoint,
        event_id: options.event,
        status: options.status,
        limit: options.limit ?? 0,
      });
      const data = found.data.map(deliveryJson);
      context.print({ json: { data }, text: data.length ? data.map(deliveryLine).join("\n") : "No deliveries." });
    });

  deliveries
    .command("show")
    .description("one delivery and every attempt of it")
    .argument("<delivery-id>", "the delivery (dlv_…)")
    .action(async (id: string) => {
      const found = await context.core().deliveries.getDelivery({ id });
      const delivery = deliveryJson(found.delivery);
      const attempts = found.attempts.map(attemptJson);
      const lines = attempts.map((a) => `  ${a.attempted_at}  ${a.http_status ?? a.error ?? "-"}  ${a.latency_ms} ms`);
      context.print({ json: { ...delivery, attempts }, text: [deliveryLine(delivery), ...lines].join("\n") });
    });

  deliveries
    .command("replay")
    .description("send a delivery again now (fresh retry schedule), or every failed delivery of an endpoint since a time")
    .argument("[delivery-id]", "the delivery (dlv_…)")
    .option("--endpoint <endpoint-id>", "with --since: replay this endpoint's failed deliveries")
    .option("--since <iso>", "with --endpoint: deliveries created at or after this time, ISO 8601")
    .action(async (id: string | undefined, options: { endpoint?: string; since?: string }) => {
      if (id !== undefined) {
        if (options.endpoint || options.since) throw new InvalidArgumentError("Give a delivery id, or --endpoint with --since, not both.");
        const replayed = deliveryJson((await context.core().deliveries.replayDelivery({ id })).delivery);
        context.print({ json: replayed, text: `Replaying ${String(replayed.id)} (${String(replayed.event_id)} → ${String(replayed.endpoint_id)})` });
        return;
      }
      if (!options.endpoint || !options.since) throw new InvalidArgumentError("Give a delivery id, or --endpoint and --since.");
      const replayed = await context.core().deliveries.replayFailedDeliveries({ endpoint_id: options.endpoint, since: options.since });
      context.print({
        json: { endpoint_id: options.endpoint, replayed: replayed.delivery_ids.length, delivery_ids: replayed.delivery_ids },
        text: `Replaying ${replayed.delivery_ids.length} failed deliver${replayed.delivery_ids.length === 1 ? "y" : "ies"} of ${options.endpoint}`,
      });
    });
}
