// The webhook dispatcher (DESIGN §4 "Delivery model"): takes events off the durable JetStream
// consumer and has the core record their deliveries (then acks), and sends due attempts claimed
// from the core with a lease. Stateless apart from NATS acks: any number may run.
import { createServer } from "node:http";
import { connect } from "@nats-io/transport-node";
import { CoreClient } from "../../proto/core-client.ts";
import { EVENT_STREAM, natsConnectionOptions } from "../../proto/event-stream.ts";
import { requestListener } from "../../proto/request-listener.ts";
import { createLogger } from "../../proto/runtime/logger.ts";
import { loadConfig } from "./config.ts";
import { ensureEventConsumer } from "./event-consumer.ts";
import { EventIntake } from "./event-intake.ts";
import { SendLoop } from "./send-loop.ts";
import { startTracing } from "../../proto/runtime/tracing.ts";

const log = createLogger("dispatcher");
// First (OTEL_EXPORTER_OTLP_ENDPOINT): the intake and the send loop trace only when it is on.
const tracing = await startTracing("paytami-dispatcher").catch((err: unknown) => {
  log.fatal({ err }, "dispatcher failed to start");
  process.exit(1);
});
// A configuration it refuses (a missing or weak token, unreadable TLS files) is one log line and exit 1.
const { config, core } = (() => {
  try {
    const config = loadConfig();
    return { config, core: new CoreClient({ address: config.coreGrpcAddr, internalToken: config.internalToken, tls: config.coreTls, timeoutMs: 10_000 }) };
  } catch (err) {
    log.fatal({ err }, "dispatcher failed to start");
    process.exit(1);
  }
})();

const nc = await connect(natsConnectionOptions(config.natsUrl, "paytami-dispatcher"));
const jsm = await ensureEventConsumer(nc, config.consumer, config.natsStreamReplicas);
log.info({ nats: config.natsUrl, stream: EVENT_STREAM, consumer: config.consumer }, "consumer ready");

const sender = new SendLoop(core.deliveries, log, config);
const intake = new EventIntake(nc, core, log, config.consumer, () => sender.poke(), {
  replicas: config.natsStreamReplicas,
  pullExpiresMs: config.pullExpiresMs,
});
sender.start();
intake.start();

const server = createServer(
  requestListener(log, async (req, res) => {
    if (req.method === "GET" && req.url === "/healthz") {
      const info = nc.isClosed() ? undefined : await jsm.consumers.info(EVENT_STREAM, config.consumer).catch(() => undefined);
      res.writeHead(info ? 200 : 503, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(info ? { status: "ok", pending_events: info.num_pending, attempts_sent: sender.sent } : { status: "unavailable" }));
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: "validation_error", message: "Unknown route." } }));
  }),
);
server.listen(config.httpPort, "127.0.0.1", () =>
  log.info({ http_port: config.httpPort, concurrency: config.concurrency, core_tls: config.coreTls !== null }, "dispatcher ready"),
);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  const deadline = Date.now() + config.drainMs;
  log.info({ signal }, "draining");
  // Whatever the core, NATS or a receiver do meanwhile, the process is gone within DRAIN.
  setTimeout(() => {
    log.error({ drain_ms: config.drainMs }, "drain time over; exiting");
    process.exit(1);
  }, config.drainMs).unref();
  server.close();
  // Events not yet recorded go back to JetStream; attempts in flight finish or are handed back.
  await intake.stop();
  await sender.stop(config.shutdownGraceMs, deadline - 1_000);
  await nc.drain().catch(() => undefined);
  core.close();
  await tracing?.shutdown().catch(() => undefined);
  log.info("stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
