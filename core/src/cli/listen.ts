// `paytami listen --merchant M --forward-to URL`: forwards a merchant's new events to a local URL
// while it runs, signed like real deliveries with a secret of this session (printed at the start),
// one line per event. It polls the core's event store (ListRecentEvents) rather than consuming
// JetStream, so it sees exactly what the merchant's endpoints are sent and never takes an event
// away from the dispatchers. One attempt per event: it is a development tool, not a delivery.
import { setTimeout as sleep } from "node:timers/promises";
import { Option, type Command } from "commander";
import { modeCodec } from "../../../proto/enums.ts";
import { generateWebhookSecret } from "../../../proto/webhook-signature.ts";
import { sendWebhook } from "../../../proto/send-webhook.ts";
import { DESCRIPTIONS, type CommandContext } from "./command.ts";

const POLL_MS = 500;
/** How far back each poll looks again: an event is stamped before its transaction commits. */
const OVERLAP_MS = 10_000;
const TIMEOUT_MS = 15_000;

export function addListenCommands(program: Command, context: CommandContext): void {
  program
    .command("listen")
    .description(DESCRIPTIONS.listen)
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .requiredOption("--forward-to <url>", "where to POST each event, e.g. http://localhost:3000/webhooks")
    .addOption(new Option("--mode <mode>", "the events' mode").choices(modeCodec.wireNames).default("test"))
    .action(async (options: { merchant: string; forwardTo: string; mode: string }) => {
      const core = context.core();
      const mode = modeCodec.fromWire(options.mode);
      const secret = generateWebhookSecret();
      const started = (await core.deliveries.listRecentEvents({ merchant_id: options.merchant, mode, limit: 0 })).now;
      let since = started;
      context.print({
        json: { listening: true, merchant_id: options.merchant, mode: options.mode, forward_to: options.forwardTo, secret },
        text: `Forwarding ${options.mode} events of ${options.merchant} to ${options.forwardTo} (Ctrl-C to stop)\nSigning secret of this session: ${secret}`,
      });
      let stopped = false;
      const stop = () => (stopped = true);
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      const seen = new Map<string, number>();
      while (!stopped) {
        const found = await core.deliveries.listRecentEvents({ merchant_id: options.merchant, mode, since, limit: 500 });
        for (const event of found.events) {
          if (seen.has(event.id)) continue;
          seen.set(event.id, Date.parse(event.created_at));
          const outcome = await sendWebhook({
            url: options.forwardTo,
            eventId: event.id,
            body: event.body,
            secrets: [secret],
            destinations: "any",
            timeoutMs: TIMEOUT_MS,
          });
          const result = outcome.httpStatus ?? `error: ${outcome.error ?? "no response"}`;
          context.print({
            json: { event_id: event.id, type: event.type, status: outcome.httpStatus ?? null, error: outcome.error ?? null, latency_ms: outcome.latencyMs },
            text: `${event.id} ${event.type} → ${result}`,
          });
        }
        // Full page: continue right after it; else look again from a little before the core's time.
        const last = found.events.at(-1);
        since =
          found.events.length >= 500 && last ? last.created_at : new Date(Math.max(Date.parse(started), Date.parse(found.now) - OVERLAP_MS)).toISOString();
        const horizon = Date.parse(since) - OVERLAP_MS;
        for (const [id, at] of seen) if (at < horizon) seen.delete(id);
        if (!stopped && found.events.length < 500) await sleep(POLL_MS);
      }
    });
}
