// OpenTelemetry set-up, the first thing each process's main does. Off unless
// OTEL_EXPORTER_OTLP_ENDPOINT is set: then nothing of the SDK is even loaded, and the helpers of
// spans.ts reduce to a boolean check. On: spans go in batches to the OTLP/HTTP endpoint (JSON;
// the exporter also reads the standard OTEL_EXPORTER_OTLP_* variables: headers, timeout,
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; OTEL_TRACES_SAMPLER and _ARG choose the sampler, every trace
// kept by default), W3C trace context is the propagator, AsyncLocalStorage
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

type SamplerName = "always_on" | "always_off" | "traceidratio" | "parentbased_always_on" | "parentbased_always_off" | "parentbased_traceidratio";
const SAMPLERS: readonly SamplerName[] = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
];

/**
 * OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, as the OpenTelemetry spec defines them (this SDK
 * version no longer reads them itself): which sampler, and a ratio's fraction (0–1, default 1).
 * Unset: parentbased_always_on, every trace kept. A ratio decided at the facade is carried by
 * `traceparent`, so with a parent-based sampler a trace is kept or dropped whole across processes.
 */
function samplerChoice(env: NodeJS.ProcessEnv): { name: SamplerName; ratio: number } {
  const text = (env.OTEL_TRACES_SAMPLER || "parentbased_always_on").trim();
  if (!(SAMPLERS as readonly string[]).includes(text)) throw new Error(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(", ")}, got "${text}"`);
  const name = text as SamplerName;
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = arg ? Number(arg) : 1;
  if (name.endsWith("traceidratio") && !(arg === undefined || arg === "" || (/^\d*\.?\d+$/.test(arg) && ratio >= 0 && ratio <= 1))) {
    throw new Error(`OTEL_TRACES_SAMPLER_ARG must be a fraction from 0 to 1 (e.g. 0.25), got "${arg}"`);
  }
  return { name, ratio };
}

/** The sampler OTEL_TRACES_SAMPLER (and _ARG) name; throws on a value the spec does not define. */
export async function samplerFromEnv(env: NodeJS.ProcessEnv): Promise<import("@opentelemetry/sdk-trace").Sampler> {
  const { name, ratio } = samplerChoice(env);
  const sdk = await import("@opentelemetry/sdk-trace");
  const root = name.endsWith("always_on")
    ? new sdk.AlwaysOnSampler()
    : name.endsWith("always_off")
      ? new sdk.AlwaysOffSampler()
      : new sdk.TraceIdRatioBasedSampler(ratio);
  return name.startsWith("parentbased_") ? new sdk.ParentBasedSampler({ root }) : root;
}

/** Sets up tracing for `service` when OTEL_EXPORTER_OTLP_ENDPOINT is set; undefined (and no cost) otherwise. */
export async function startTracing(service: ServiceName, options: TracingOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<Tracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  const delay = scheduleDelayMs(env.OTEL_BSP_SCHEDULE_DELAY);
  const sampler = await samplerFromEnv(env);
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
    sampler,
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
