import type { Context, Next } from "koa";
import { contextOf, failed, inSpan, SpanKind, SpanStatusCode } from "../../../proto/runtime/spans.ts";

/**
 * Tracing on: one server span per request, the root of its trace. The facade is the public edge, so
 * a `traceparent` sent by a client is not continued (a stranger's trace id and sampling choice would
 * land in our traces); the request id (Request-Id) is on the span to find it from a client's report.
 * Named after the matched route (`POST /v1/payments`, ids left out) once the router has run.
 * /healthz is not traced.
 */
export async function traceRequest(ctx: Context, next: Next): Promise<void> {
  // A load balancer's probe every few seconds would be most of the traces, and says nothing.
  if (ctx.path === "/healthz") {
    await next();
    return;
  }
  await inSpan(
    `${ctx.method}`,
    { kind: SpanKind.SERVER, parent: contextOf(null), attributes: { "http.request.method": ctx.method, "url.path": ctx.path } },
    async (span) => {
      try {
        await next();
      } catch (error) {
        failed(span, error);
        throw error;
      } finally {
        const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
        if (typeof route === "string") {
          span!.setAttribute("http.route", route);
          span!.updateName(`${ctx.method} ${route}`);
        }
        const requestId = (ctx.state as { requestId?: string }).requestId;
        if (requestId) span!.setAttribute("paytami.request_id", requestId);
        span!.setAttribute("http.response.status_code", ctx.status);
        if (ctx.status >= 500) span!.setStatus({ code: SpanStatusCode.ERROR });
      }
    },
  );
}
