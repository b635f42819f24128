import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { contextOf, currentTraceparent, inSpan, startSpan, tracingOn } from "./spans.ts";
import { ROOT_CONTEXT, SpanKind, trace, TraceFlags } from "@opentelemetry/api";
import { SamplingDecision } from "@opentelemetry/sdk-trace";
import { samplerFromEnv, startTracing } from "./tracing.ts";

describe("tracing set-up", () => {
  test("without OTEL_EXPORTER_OTLP_ENDPOINT nothing is set up and every span helper is a pass-through", async () => {
    expect(await startTracing("paytami-core", { sql: true }, {})).toBeUndefined();
    expect(tracingOn()).toBe(false);
    expect(currentTraceparent()).toBeNull();
    expect(startSpan("x")).toBeUndefined();
    expect(await inSpan("x", { parent: contextOf("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01") }, async (span) => span)).toBeUndefined();
  });

  test("a malformed OTEL_BSP_SCHEDULE_DELAY is refused at start, naming the variable", async () => {
    await expect(startTracing("paytami-facade", {}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_BSP_SCHEDULE_DELAY: "soon" })).rejects.toThrow(
      /OTEL_BSP_SCHEDULE_DELAY/,
    );
    expect(tracingOn()).toBe(false);
  });

  test("OTEL_TRACES_SAMPLER and _ARG choose the sampler as the spec defines them; unset, every trace is kept", async () => {
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const decide = async (env: NodeJS.ProcessEnv, parent = ROOT_CONTEXT) =>
      (await samplerFromEnv(env)).shouldSample(parent, traceId, "x", SpanKind.SERVER, {}, []).decision;
    const sampledParent = trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: "b7ad6b7169203331", traceFlags: TraceFlags.SAMPLED, isRemote: true });
    const droppedParent = trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: "b7ad6b7169203331", traceFlags: TraceFlags.NONE, isRemote: true });
    const KEEP: SamplingDecision = SamplingDecision.RECORD_AND_SAMPLED;
    const DROP: SamplingDecision = SamplingDecision.NOT_RECORD;
    expect(await decide({})).toBe(KEEP);
    expect(await decide({}, droppedParent)).toBe(DROP);
    expect(await decide({ OTEL_TRACES_SAMPLER: "always_off" })).toBe(DROP);
    expect(await decide({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" })).toBe(DROP);
    expect(await decide({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "1" })).toBe(KEEP);
    // Parent-based: a root is decided by the ratio, a child follows its parent whatever the ratio.
    expect(await decide({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" })).toBe(DROP);
    expect(await decide({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" }, sampledParent)).toBe(KEEP);
    expect(await decide({ OTEL_TRACES_SAMPLER: "always_on" }, droppedParent)).toBe(KEEP);
    // A quarter of random trace ids, within 7 standard deviations: the ratio reads the id, so a trace is decided alike everywhere.
    const sampler = await samplerFromEnv({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.25" });
    let kept = 0;
    for (let n = 0; n < 4_000; n++) {
      const id = randomBytes(16).toString("hex");
      if (sampler.shouldSample(ROOT_CONTEXT, id, "x", SpanKind.SERVER, {}, []).decision === KEEP) kept++;
    }
    expect(kept / 4_000).toBeGreaterThan(0.2);
    expect(kept / 4_000).toBeLessThan(0.3);
  });

  test("an OTEL_TRACES_SAMPLER or _ARG the spec does not define is refused at start, naming the variable", async () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" };
    await expect(startTracing("paytami-core", {}, { ...endpoint, OTEL_TRACES_SAMPLER: "sometimes" })).rejects.toThrow(/OTEL_TRACES_SAMPLER must be one of/);
    for (const arg of ["1.5", "-0.1", "half", "0x1"]) {
      await expect(
        startTracing("paytami-core", {}, { ...endpoint, OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: arg }),
      ).rejects.toThrow(/OTEL_TRACES_SAMPLER_ARG must be a fraction/);
    }
    expect(tracingOn()).toBe(false);
  });
});
