import { randomUUID } from "node:crypto";
import type { Context, Next } from "koa";
import type { Logger } from "../../../proto/runtime/logger.ts";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface FacadeState {
  requestId: string;
  /** A child logger with the request id, made on first use. */
  readonly log: Logger;
}

/**
 * Request id (the client's, when sane) on every response and every log line, plus an access log.
 * A route whose path carries a secret sets `ctx.state.logPath` to what the log may show instead.
 */
export function requestContext(base: Logger) {
  return async (ctx: Context, next: Next) => {
    const given = ctx.get("Request-Id");
    const requestId = SANE_REQUEST_ID.test(given) ? given : randomUUID();
    let child: Logger | undefined;
    (ctx.state as { requestId: string }).requestId = requestId;
    Object.defineProperty(ctx.state, "log", { get: () => (child ??= base.child({ request_id: requestId })) });
    ctx.set("Request-Id", requestId);
    ctx.set("X-Content-Type-Options", "nosniff");
    const started = performance.now();
    try {
      await next();
    } finally {
      base.info(
        {
          request_id: requestId,
          method: ctx.method,
          path: (ctx.state as { logPath?: string }).logPath ?? ctx.path,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        "request",
      );
    }
  };
}
