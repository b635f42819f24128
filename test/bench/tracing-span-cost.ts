// Where the tracing bench's cost goes, without the rest of the stack: the two spans the facade makes
// per request (its server span, the gRPC client span whose traceparent goes in the call's metadata),
// made in one process with the SDK and the OTLP/HTTP JSON exporter exactly as proto/runtime/tracing.ts
// sets them up, exporting to a loopback HTTP sink. It reports CPU µs per request (process.cpuUsage,
// minus the same loop without spans) for each way of making them, alternated in one run:
//   before   the client span's traceparent through context.with + propagation.inject, rpc.method too
//   now      traceparentOf(span) (proto/runtime/spans.ts), rpc.method left out (it is the name)
//   now, no export   the same spans, no span processor: what the exporter's batching and serialisation cost
// `node test/bench/tracing-span-cost.ts` (BENCH_SPAN_REQUESTS, default 40000; BENCH_SPAN_ROUNDS, default 3).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as api from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { traceparentOf } from "../../proto/runtime/spans.ts";
import { isMain } from "./run-alone.ts";

const REQUESTS = Number(process.env.BENCH_SPAN_REQUESTS ?? 40_000);
const ROUNDS = Number(process.env.BENCH_SPAN_ROUNDS ?? 3);
const CONCURRENCY = 50;
const METHOD = "paytami.v1.PaymentService/CreatePayment";

type Way = "before" | "now";

function tracerFor(exporting: boolean, endpoint: string): { tracer: api.Tracer; provider: TracerProvider } {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": "paytami-span-cost" }),
    spanProcessors: exporting
      ? [
          new BatchSpanProcessor({
            exporter: new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }),
            scheduledDelayMillis: 1_000,
            maxQueueSize: 8_192,
            maxExportBatchSize: 1_024,
          }),
        ]
      : [],
  });
  return { tracer: provider.getTracer("paytami"), provider };
}

function traceparentBefore(client: api.Span): string | undefined {
  return api.context.with(api.trace.setSpan(api.context.active(), client), () => {
    const carrier: Record<string, string> = {};
    api.propagation.inject(api.context.active(), carrier);
    return carrier.traceparent;
  });
}

async function request(tracer: api.Tracer, way: Way, i: number): Promise<void> {
  const attributes = { "http.request.method": "POST", "url.path": "/v1/payments" };
  await tracer.startActiveSpan("POST", { kind: api.SpanKind.SERVER, attributes }, api.ROOT_CONTEXT, async (span) => {
    const client = tracer.startSpan(METHOD, {
      kind: api.SpanKind.CLIENT,
      attributes: way === "before" ? { "rpc.system": "grpc", "rpc.method": METHOD } : { "rpc.system": "grpc" },
    });
    const traceparent = way === "before" ? traceparentBefore(client) : traceparentOf(client);
    if (!traceparent) throw new Error("no traceparent");
    await new Promise((resolve) => setImmediate(resolve));
    client.end();
    span.setAttribute("http.route", "/v1/payments");
    span.updateName("POST /v1/payments");
    span.setAttribute("paytami.request_id", `req-${i}`);
    span.setAttribute("http.response.status_code", 201);
    span.end();
  });
}

async function loop(n: number, one: (i: number) => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < n; i += CONCURRENCY) await Promise.all(Array.from({ length: CONCURRENCY }, (_, j) => one(i + j)));
  const used = process.cpuUsage(started);
  return used.user + used.system;
}

export async function benchSpanCost(): Promise<string[]> {
  const sink = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const variants = [
    { name: "before", way: "before" as Way, exporting: true },
    { name: "now", way: "now" as Way, exporting: true },
    { name: "now, no export", way: "now" as Way, exporting: false },
  ];
  const results = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of variants) {
      const { tracer, provider } = tracerFor(variant.exporting, endpoint);
      await loop(2_000, (i) => request(tracer, variant.way, i));
      const bare = await loop(REQUESTS, () => new Promise((resolve) => setImmediate(resolve)));
      const traced = await loop(REQUESTS, (i) => request(tracer, variant.way, i));
      await provider.forceFlush();
      await provider.shutdown();
      results.get(variant.name)!.push((traced - bare) / REQUESTS);
    }
  }
  sink.close();
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return [
    `#### CPU µs per request of the facade's two spans (${REQUESTS} requests, ${ROUNDS} alternating rounds; test/bench/tracing-span-cost.ts)`,
    "",
    "| Variant | µs per request (median) | rounds |",
    "|---|---:|---|",
    ...variants.map(
      (v) =>
        `| ${v.name} | ${median(results.get(v.name)!).toFixed(1)} | ${results
          .get(v.name)!
          .map((us) => us.toFixed(1))
          .join(", ")} |`,
    ),
    "",
  ];
}

if (isMain(import.meta)) {
  const lines = await benchSpanCost();
  process.stdout.write(`${lines.join("\n")}\n`);
}
