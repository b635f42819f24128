import { randomUUID } from "node:crypto";
import type { handleUnaryCall, Metadata, ServerUnaryCall } from "@grpc/grpc-js";
import { INTERNAL_TOKEN_METADATA_KEY, REQUEST_ID_METADATA_KEY } from "../../../proto/error-catalog.ts";
import type { ServiceCaller } from "../domain/caller.ts";
import { operationSpanAttributes, type OperationInfo } from "../domain/operation.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { DomainError } from "../domain/errors.ts";
import { serviceCheck } from "../domain/service-credentials.ts";
import type { Logger } from "../../../proto/runtime/logger.ts";
import { grpcCallSeconds } from "../metrics.ts";
import { callersOf } from "./access.ts";
import { toServiceError } from "./errors.ts";
import { contextOf, inSpan, SpanKind, tracingOn } from "../../../proto/runtime/spans.ts";

export interface CallContext {
  requestId: string;
  /** A child logger with the request id, made on first use (most calls log nothing). */
  readonly log: Logger;
  /** The `authorization` metadata value, e.g. "Bearer sk_test_…". */
  authorization: string | undefined;
  /** The process whose credential came with the call, one the method's allow-list (access.ts) names: resolved before the handler runs. */
  caller: ServiceCaller;
}

function firstString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === "string" ? value : undefined;
}

/**
 * Wraps a handler: the caller's credential and the method's allow-list (every Paytami method
 * requires one, so both are checked here and nowhere else), request id and logger per call,
 * metrics, and the mapping of errors to catalog codes.
 */
export function unary<Req, Res>(
  deps: Pick<CoreDeps, "log" | "config">,
  method: string,
  operation: OperationInfo,
  handler: (request: Req, context: CallContext) => Promise<Res>,
): handleUnaryCall<Req, Res> {
  const base = deps.log;
  const resolveCaller = serviceCheck(deps.config.serviceTokens);
  const spanAttributes = { "rpc.system": "grpc", ...operationSpanAttributes(operation) };
  return (call: ServerUnaryCall<Req, Res>, callback) => {
    const requestId = firstString(call.metadata, REQUEST_ID_METADATA_KEY) ?? randomUUID();
    let child: Logger | undefined;
    const log = () => (child ??= base.child({ request_id: requestId, method }));
    const started = performance.now();
    const run = async () => {
      // Before the handler sees anything: a refused credential is answered like any other error below.
      const caller = resolveCaller(firstString(call.metadata, INTERNAL_TOKEN_METADATA_KEY));
      const path = call.getPath();
      if (!callersOf(path).includes(caller.name)) throw new DomainError("unauthorized", `The ${caller.name}'s credential may not call ${path.slice(1)}.`);
      return handler(call.request, {
        requestId,
        get log() {
          return log();
        },
        authorization: firstString(call.metadata, "authorization"),
        caller,
      });
    };
    // Tracing on: a server span continuing the caller's trace (its `traceparent` metadata). It is the
    // operation's span too (the method runs it with `spanned`), named by the method as gRPC spans are.
    const traced = tracingOn()
      ? () =>
          inSpan(
            call.getPath().slice(1),
            { kind: SpanKind.SERVER, parent: contextOf(firstString(call.metadata, "traceparent")), attributes: spanAttributes },
            run,
          )
      : run;
    traced().then(
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
        callback(toServiceError(error));
      },
    );
  };
}
