// The spans Paytami's code makes, on @opentelemetry/api only: with no tracer provider set up
// (OTEL_EXPORTER_OTLP_ENDPOINT unset, proto/runtime/tracing.ts) every helper here is one boolean
// check and a direct call, so tracing costs nothing when it is off. W3C `traceparent` is the one
// carrier between processes: gRPC metadata, NATS headers and the outbox row.
import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
} from "@opentelemetry/api";

export { SpanKind, SpanStatusCode, type Context, type Span };

const state = { on: false };

/** Called once by the tracing set-up, after it registered the provider, the context manager and the propagator. */
export function markTracingOn(): void {
  state.on = true;
}

export function tracingOn(): boolean {
  return state.on;
}

const tracer = () => trace.getTracer("paytami");

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent: the active context unless given (e.g. one extracted from a message). */
  parent?: Context;
  links?: Link[];
}

/**
 * Runs `fn` in a new span, made active for everything `fn` awaits, and ends it when `fn` settles (a
 * thrown error marks it failed). With tracing off, runs `fn` and nothing else.
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!state.on) return fn(undefined);
  const { parent, ...rest } = options;
  return tracer().startActiveSpan(name, rest, parent ?? context.active(), async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Starts a span the caller ends (a callback API, a message acknowledged later); undefined with tracing off. */
export function startSpan(name: string, options: SpanOptions = {}): Span | undefined {
  if (!state.on) return undefined;
  const { parent, ...rest } = options;
  return tracer().startSpan(name, rest, parent ?? context.active());
}

/** Runs `fn` with `span` as the active span (so calls it makes are its children). */
export function withSpan<T>(span: Span | undefined, fn: () => T): T {
  if (!span) return fn();
  return context.with(trace.setSpan(context.active(), span), fn);
}

/**
 * Runs `fn` (a background poll: the dispatcher's claims and records) under a parent that is not
 * sampled, so the calls it makes, and the core's spans for them (the `traceparent` sent says "not
 * sampled"), record nothing: an idle dispatcher does not make a trace every poll interval.
 */
export function untraced<T>(fn: () => T): T {
  if (!state.on) return fn();
  const unsampled = trace.setSpanContext(ROOT_CONTEXT, { traceId: UNSAMPLED_TRACE, spanId: UNSAMPLED_SPAN, traceFlags: TraceFlags.NONE });
  return context.with(unsampled, fn);
}
// Valid (non-zero) ids, never exported: a span under an unsampled parent is not recorded.
const UNSAMPLED_TRACE = "00000000000000000000000000000001";
const UNSAMPLED_SPAN = "0000000000000001";

/** Marks `span` failed with the error's message (never its details: they may hold client input). */
export function failed(span: Span | undefined, error: unknown): void {
  if (!span) return;
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : "error" });
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") span.setAttribute("paytami.error_code", code);
}

/** The active span's W3C traceparent (to store or send on), or null with tracing off or no span. */
export function currentTraceparent(active: Context = context.active()): string | null {
  if (!state.on) return null;
  const span = trace.getSpanContext(active);
  return span ? traceparentOf(span) : null;
}

/**
 * `span`'s W3C traceparent, written directly: what W3CTraceContextPropagator.inject writes (version
 * 00, no tracestate: Paytami sets none), without making the span active in a new context first or
 * going through the global propagator and a carrier object, once per gRPC call and per event.
 */
export function traceparentOf(span: Span | SpanContext): string | null {
  const spanContext = "spanContext" in span ? span.spanContext() : span;
  if (!isSpanContextValid(spanContext)) return null;
  return `00-${spanContext.traceId}-${spanContext.spanId}-0${(spanContext.traceFlags & TraceFlags.SAMPLED).toString(16)}`;
}

/** The remote parent a traceparent names (the root context when it is absent or malformed). */
export function contextOf(traceparent: string | null | undefined): Context {
  if (!state.on || !traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** The active context, for work queued now and done later on its behalf; undefined with tracing off. */
export function capturedContext(): Context | undefined {
  return state.on ? context.active() : undefined;
}

/** Runs `fn` in a context `capturedContext` took (or as it is, with none). */
export function inContext<T>(captured: Context | undefined, fn: () => T): T {
  return captured ? context.with(captured, fn) : fn();
}

/** Links to the spans active in captured contexts, for a span that serves them all (a batch). */
export function linksToSpansIn(captured: readonly (Context | undefined)[]): Link[] {
  const links: Link[] = [];
  for (const c of captured) {
    const span = c && trace.getSpanContext(c);
    if (span) links.push({ context: span });
  }
  return links;
}

/** A link to the span a traceparent names, for a span that serves several (a batch). */
export function linkTo(traceparent: string | null | undefined): Link[] {
  return linksToSpansIn([contextOf(traceparent)]);
}
