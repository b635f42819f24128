// The webhook dispatcher. This first version connects to JetStream, owns the
// stream's durable consumer and reports health; it does not take events off
// the stream yet, so nothing is acknowledged before it can be delivered.
import { createServer } from "node:http";
import { connect } from "@nats-io/transport-node";
import { CoreClient } from "../../proto/core-client.ts";
import { DISPATCHER_CONSUMER, EVENT_STREAM } from "../../proto/event-stream.ts";
import { createLogger } from "../../core/src/logger.ts";
import { loadConfig } from "./config.ts";
import { ensureEventConsumer } from "./event-consumer.ts";

const log = createLogger("dispatcher");
const config = loadConfig();
// Deliveries will be recorded through the core; the channel connects on the first call.
const core = new CoreClient({ address: config.coreGrpcAddr, internalToken: config.internalToken, timeoutMs: 10_000 });

const nc = await connect({ servers: config.natsUrl, name: "paytami-dispatcher", maxReconnectAttempts: -1, waitOnFirstConnect: true });
const jsm = await ensureEventConsumer(nc);
log.info({ nats: config.natsUrl, stream: EVENT_STREAM, consumer: DISPATCHER_CONSUMER }, "consumer ready");

const server = createServer(async (req, res) => {
  if (req.method === "GET" && req.url === "/healthz") {
    const info = nc.isClosed() ? undefined : await jsm.consumers.info(EVENT_STREAM, DISPATCHER_CONSUMER).catch(() => undefined);
    res.writeHead(info ? 200 : 503, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(info ? { status: "ok", pending_events: info.num_pending } : { status: "unavailable" }));
    return;
  }
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { code: "validation_error", message: "Unknown route." } }));
});
server.listen(config.httpPort, "127.0.0.1", () => log.info({ http_port: config.httpPort }, "dispatcher ready"));

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "draining");
  server.close();
  await nc.drain().catch(() => undefined);
  core.close();
  log.info("stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
