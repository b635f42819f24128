// The public HTTP edge: the /v1 REST contract and the hosted pages, translated
// to gRPC calls on the core. Stateless: run as many as you like.
import { createServer } from "node:http";
import { createLogger } from "../../proto/runtime/logger.ts";
import { createApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { CoreClient } from "../../proto/core-client.ts";
import { requestListener } from "../../proto/request-listener.ts";
import { coreHealthy } from "./core-health.ts";
import { startTracing } from "../../proto/runtime/tracing.ts";
import { registry } from "./metrics.ts";
import { RequestLogPublisher } from "./request-logs/publisher.ts";

/** The counters of metrics.ts on loopback only: operational detail is not for the public port. */
function serveMetrics(port: number) {
  return createServer((_req, res) => {
    void registry.metrics().then((text) => {
      res.setHeader("Content-Type", registry.contentType);
      res.end(text);
    });
  })
    .on("error", (err) => log.error({ err, port }, "metrics port unavailable; counters not served"))
    .listen(port, "127.0.0.1");
}

const log = createLogger("facade");
// First: the app's middleware and the core client see whether tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT).
const tracing = await startTracing("paytami-facade").catch((err: unknown) => {
  log.fatal({ err }, "facade failed to start");
  process.exit(1);
});
// A configuration it refuses (a missing or weak token, unreadable TLS files) is one log line and exit 1.
const { config, core } = (() => {
  try {
    const config = loadConfig();
    return {
      config,
      core: new CoreClient({
        address: config.coreGrpcAddr,
        internalToken: config.internalToken,
        tls: config.coreTls,
        timeoutMs: config.coreTimeoutMs,
        spanPerCall: false,
      }),
    };
  } catch (err) {
    log.fatal({ err }, "facade failed to start");
    process.exit(1);
  }
})();
// Request logs: off the request path, through NATS to the core (request-logs/).
const requestLogs = config.requestLogs && config.natsUrl ? new RequestLogPublisher(config.requestLogs, config.natsUrl, log) : undefined;
if (!requestLogs)
  log.info({ request_logs: "off" }, config.natsUrl ? "REQUEST_LOGS=off: no request is recorded" : "NATS_URL is not set: no request is recorded");
const app = createApp({ config, core, log, healthy: coreHealthy(core), requestLogs: requestLogs?.buffer });
const metrics = config.metricsPort === null ? undefined : serveMetrics(config.metricsPort);
const server = createServer(requestListener(log, app.callback()));
server.keepAliveTimeout = 65_000;

let stopping = false;
// While draining, every response closes its connection, and a keep-alive
// connection that was busy at SIGTERM is closed as soon as it goes idle, so the
// process exits when the last in-flight request is answered.
server.on("request", (_req, res) => {
  if (stopping) res.shouldKeepAlive = false;
  res.once("finish", () => {
    if (stopping) setImmediate(() => server.closeIdleConnections());
  });
});

server.listen(config.port, () => {
  log.info({ port: config.port, public_base_url: config.publicBaseUrl, core: config.coreGrpcAddr, core_tls: config.coreTls !== null }, "facade ready");
});

function shutdown(signal: string): void {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "draining");
  // Stop accepting, finish what is in flight, then close idle keep-alive sockets.
  server.close(() => {
    core.close();
    metrics?.close();
    void requestLogs?.close();
    log.info("stopped");
    void (tracing?.shutdown() ?? Promise.resolve()).finally(() => process.exit(0));
  });
  server.closeIdleConnections();
  setTimeout(() => {
    log.warn("grace period over; closing remaining connections");
    server.closeAllConnections();
  }, config.shutdownGraceMs).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
