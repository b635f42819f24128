import { randomUUID } from "node:crypto";
import type { handleUnaryCall, Metadata, ServerUnaryCall } from "@grpc/grpc-js";
import { INTERNAL_TOKEN_METADATA_KEY, REQUEST_ID_METADATA_KEY } from "../../../proto/error-catalog.ts";
import { OPERATOR, type OperatorCaller } from "../domain/caller.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { DomainError } from "../domain/errors.ts";
import { resolveOperator } from "../domain/operator.ts";
import type { Logger } from "../logger.ts";
import { grpcCallSeconds } from "../metrics.ts";
import { toServiceError } from "./errors.ts";

export interface CallContext {
  requestId: string;
  /** A child logger with the request id, made on first use (most calls log nothing). */
  readonly log: Logger;
  metadata: Metadata;
  /** The `authorization` metadata value, e.g. "Bearer sk_test_…". */
  authorization: string | undefined;
  /** The internal caller every Paytami method requires (the internal token), resolved before the handler runs. */
  operator: OperatorCaller;
}

function firstString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === "string" ? value : undefined;
}

/**
 * Wraps a handler: the internal token (every Paytami method requires it, so it is checked here and
 * nowhere else), request id and logger per call, metrics, and the mapping of errors to catalog codes.
 */
export function unary<Req, Res>(
  deps: Pick<CoreDeps, "log" | "config">,
  method: string,
  handler: (request: Req, context: CallContext) => Promise<Res>,
): handleUnaryCall<Req, Res> {
  const base = deps.log;
  const { internalToken } = deps.config;
  return (call: ServerUnaryCall<Req, Res>, callback) => {
    const requestId = firstString(call.metadata, REQUEST_ID_METADATA_KEY) ?? randomUUID();
    let child: Logger | undefined;
    const context: CallContext = {
      requestId,
      get log() {
        child ??= base.child({ request_id: requestId, method });
        return child;
      },
      metadata: call.metadata,
      authorization: firstString(call.metadata, "authorization"),
      operator: OPERATOR,
    };
    const log = () => context.log;
    const started = performance.now();
    Promise.resolve()
      .then(() => {
        context.operator = resolveOperator(internalToken, firstString(call.metadata, INTERNAL_TOKEN_METADATA_KEY));
        return handler(call.request, context);
      })
      .then(
        (response) => {
          grpcCallSeconds.observe({ method, code: "ok" }, (performance.now() - started) / 1000);
          if (base.isLevelEnabled("debug")) log().debug({ ms: Math.round(performance.now() - started) }, "ok");
          callback(null, response);
        },
        (error: unknown) => {
          const code = error instanceof DomainError ? error.code : "internal_error";
          grpcCallSeconds.observe({ method, code }, (performance.now() - started) / 1000);
          if (error instanceof DomainError) {
            log().info({ code, ms: Math.round(performance.now() - started) }, error.message);
          } else {
            log().error({ err: error }, "unexpected error");
          }
          callback(toServiceError(error) as never);
        },
      );
  };
}
