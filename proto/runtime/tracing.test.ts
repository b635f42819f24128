import { describe, expect, test } from "vitest";
import { contextOf, currentTraceparent, inSpan, startSpan, tracingOn } from "./spans.ts";
import { startTracing } from "./tracing.ts";

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
});
