// OpenTelemetry set-up, the first thing each process's main does. Off unless
// OTEL_EXPORTER_OTLP_ENDPOINT is set: then nothing of the SDK is even loaded, and the helpers of
// spans.ts reduce to a boolean check. On: spans go in batches to the OTLP/HTTP endpoint (JSON;
// the exporter also reads the standard OTEL_EXPORTER_OTLP_* variables: headers, timeout,
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), W3C trace context is the propagator, AsyncLocalStorage
// carries the active span, and the core's SQL is traced by instrumentation-pg (only queries inside
// a traced operation: a background poll makes no trace of its own).
import { createRequire } from "node:module";
import { markTracingOn } from "./spans.ts";
import { isDuration, parseDuration } from "./env.ts";

export type ServiceName = "paytami-core" | "paytami-facade" | "paytami-dispatcher";

export interface Tracing {
  /** Exports what is still buffered; called while the process stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** Trace the pg driver's queries (the core: the only process that talks to PostgreSQL). */
  sql?: boolean;
}

/** OTEL_BSP_SCHEDULE_DELAY is milliseconds in the OpenTelemetry spec; a duration (200ms) is taken too. */
function scheduleDelayMs(text: string | undefined): number {
  if (!text) return 1_000;
  const ms = /^\d+$/.test(text.trim()) ? Number(text) : isDuration(text) ? parseDuration(text) : NaN;
  if (!(ms >= 1)) throw new Error(`OTEL_BSP_SCHEDULE_DELAY must be a positive number of milliseconds (or a duration such as 500ms), got "${text}"`);
  return ms;
}

/** Sets up tracing for `service` when OTEL_EXPORTER_OTLP_ENDPOINT is set; undefined (and no cost) otherwise. */
export async function startTracing(service: ServiceName, options: TracingOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<Tracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  const delay = scheduleDelayMs(env.OTEL_BSP_SCHEDULE_DELAY);
  const [
    api,
    { AsyncLocalStorageContextManager },
    { W3CTraceContextPropagator },
    { resourceFromAttributes },
    { ATTR_SERVICE_NAME },
    sdk,
    { OTLPTraceExporter },
  ] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/context-async-hooks"),
    import("@opentelemetry/core"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/semantic-conventions"),
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/exporter-trace-otlp-http"),
  ]);
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: service }),
    spanProcessors: [
      new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter(), scheduledDelayMillis: delay, maxQueueSize: 8_192, maxExportBatchSize: 1_024 }),
    ],
  });
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);
  if (options.sql) await traceSql(provider);
  markTracingOn();
  return { shutdown: () => provider.shutdown() };
}

/**
 * instrumentation-pg patches pg's Client when pg is loaded through require hooks, which an ES module
 * import does not pass through; so its patch is applied here to the pg module the ORM and the relay
 * use (one module instance: the same file, whichever way it is loaded).
 */
async function traceSql(provider: import("@opentelemetry/api").TracerProvider): Promise<void> {
  const { PgInstrumentation } = await import("@opentelemetry/instrumentation-pg");
  // Statements only: a span per pooled-connection checkout (pg-pool.connect, pg.connect) said nothing
  // a statement's span does not, and cost a span, a context and a callback wrapper per acquisition.
  const instrumentation = new PgInstrumentation({ enabled: false, requireParentSpan: true, enhancedDatabaseReporting: false, ignoreConnectSpans: true });
  instrumentation.setTracerProvider(provider);
  const require = createRequire(import.meta.url);
  const pg = require("pg") as object;
  const version = (require("pg/package.json") as { version: string }).version;
  const definition = instrumentation.getModuleDefinitions().find((d) => d.name === "pg");
  if (!definition?.patch) throw new Error("instrumentation-pg has no patch for pg");
  definition.patch(pg, version);
}
