// `paytami logs tail --merchant M [--status 4xx] [--mode test|live]`: a merchant's API requests as
// the facades record them, one line per request, until interrupted. It polls the core's operator
// tRPC (views.tailRequestLogs) rather than subscribing to NATS: it sees exactly what the dashboard
// shows (key ids, not digests; only requests of known keys) and needs no NATS credentials.
import { setTimeout as sleep } from "node:timers/promises";
import { Option, type Command } from "commander";
import type { RequestLogItem } from "../domain/request-logs.ts";
import { DESCRIPTIONS, type CommandContext } from "./command.ts";

const POLL_MS = 500;
const PAGE = 100;

/** What a line shows of a log (views.tailRequestLogs gives the dashboard's list item). */
type TailedLog = Pick<RequestLogItem, "created_at" | "method" | "path" | "status" | "code" | "latency_ms" | "request_id" | "api_key_id" | "replayed">;

const line = (log: TailedLog) =>
  `${log.created_at}  ${log.status}${log.code ? ` ${log.code}` : ""}  ${log.method} ${log.path}  ${log.latency_ms} ms  ${log.request_id}  ${log.api_key_id}${log.replayed ? "  replayed" : ""}`;

export function addLogCommands(program: Command, context: CommandContext): void {
  const logs = program.command("logs").description(DESCRIPTIONS.logs);
  logs
    .command("tail")
    .description("print a merchant's new API requests as they are recorded, one line each, until Ctrl-C (with --json one JSON object per line)")
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .addOption(new Option("--status <class>", "only requests answered with this status class").choices(["2xx", "4xx", "5xx"]))
    .addOption(new Option("--mode <mode>", "the requests' mode").choices(["test", "live"]).default("test"))
    .action(async (options: { merchant: string; status?: "2xx" | "4xx" | "5xx"; mode: "test" | "live" }) => {
      const { operatorTrpc, called } = await import("./operator-trpc.ts");
      const trpc = operatorTrpc();
      const acting = { merchant_id: options.merchant, mode: options.mode };
      const tail = (after?: string) => called(trpc.views.tailRequestLogs.query({ ...acting, after, status_class: options.status, limit: PAGE }));
      let cursor = (await tail()).cursor;
      context.print({
        json: { tailing: true, merchant_id: options.merchant, mode: options.mode, status: options.status ?? null },
        text: `Tailing ${options.mode} request logs of ${options.merchant}${options.status ? ` (${options.status})` : ""} (Ctrl-C to stop)`,
      });
      let stopped = false;
      const stop = () => (stopped = true);
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      while (!stopped) {
        const found = await tail(cursor);
        for (const log of found.data) context.print({ json: { ...log }, text: line(log) });
        cursor = found.cursor;
        // A full page: there is more right away.
        if (found.data.length < PAGE) await sleep(POLL_MS);
      }
    });
}
