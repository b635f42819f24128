import { randomUUID } from "node:crypto";
import type { Context, Next } from "koa";
import type { Logger } from "../../../proto/runtime/logger.ts";
import { afterResponse } from "./after-response.ts";

export const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface FacadeState {
  requestId: string;
  /** A child logger with the request id, made on first use. */
  readonly log: Logger;
}

/** One per request, in place of Koa's empty `ctx.state`: a fixed shape, and the child logger made on first use. */
class RequestState implements FacadeState {
  #child: Logger | undefined;
  /** Set by a route whose path carries a secret: what the access log shows instead of the path. */
  logPath: string | undefined;
  readonly requestId: string;
  readonly #base: Logger;
  constructor(requestId: string, base: Logger) {
    this.requestId = requestId;
    this.#base = base;
  }
  get log(): Logger {
    return (this.#child ??= this.#base.child({ request_id: this.requestId }));
  }
}

/**
 * Request id (the client's, when sane) on every response and every log line, plus an access log,
 * written once the response has gone out (not between the answer and its client; with the status
 * the client got, Koa's 500 included). A route whose path carries a secret sets `ctx.state.logPath`
 * to what the log may show instead.
 */
export function requestContext(base: Logger) {
  return async (ctx: Context, next: Next) => {
    const given = ctx.get("Request-Id");
    const requestId = SANE_REQUEST_ID.test(given) ? given : randomUUID();
    const state = new RequestState(requestId, base);
    ctx.state = state;
    ctx.set("Request-Id", requestId);
    ctx.set("X-Content-Type-Options", "nosniff");
    const started = performance.now();
    const logLine = () =>
      base.info(
        {
          request_id: requestId,
          method: ctx.method,
          path: state.logPath ?? ctx.path,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        "request",
      );
    afterResponse(ctx.res, logLine);
    await next();
  };
}
