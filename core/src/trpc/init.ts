import { initTRPC, TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { ErrorCode } from "../../../proto/error-catalog.ts";
import type { OperatorCaller } from "../domain/caller.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { DomainError } from "../domain/errors.ts";
import type { OperatorCheck } from "../domain/service-credentials.ts";

/** Per request: the core's dependencies and the credential as presented (resolved by `operatorProcedure`). */
export interface TrpcContext {
  deps: CoreDeps;
  bearer: string | undefined;
  resolveOperator: OperatorCheck;
}

/** tRPC's code (and so its HTTP status) for each catalog code; the catalog code itself travels in `data.paytami_code`. */
export const TRPC_CODE = {
  unauthorized: "UNAUTHORIZED",
  validation_error: "BAD_REQUEST",
  idempotency_key_required: "BAD_REQUEST",
  idempotency_key_reused: "CONFLICT",
  amount_below_minimum: "BAD_REQUEST",
  amount_above_maximum: "BAD_REQUEST",
  amount_required: "BAD_REQUEST",
  currency_not_supported: "BAD_REQUEST",
  method_not_supported: "BAD_REQUEST",
  unknown_payment: "NOT_FOUND",
  unknown_payment_link: "NOT_FOUND",
  payment_not_payable: "CONFLICT",
  payment_link_not_payable: "CONFLICT",
  payment_not_refundable: "BAD_REQUEST",
  refund_amount_exceeds_remaining: "BAD_REQUEST",
  rate_limited: "TOO_MANY_REQUESTS",
  processor_unavailable: "SERVICE_UNAVAILABLE",
  internal_error: "INTERNAL_SERVER_ERROR",
} as const satisfies Record<ErrorCode, TRPC_ERROR_CODE_KEY>;

/** The catalog code of any failure: a domain error keeps its own, the rest is tRPC's or a bug. */
function catalogCode(error: TRPCError): ErrorCode {
  if (error.cause instanceof DomainError) return error.cause.code;
  // tRPC's own 4xx (bad input, unknown procedure, wrong HTTP method, …) is the caller's mistake:
  // validation_error, the nearest catalog code, as the facade answers an unknown route (README).
  return getHTTPStatusCodeFromError(error) < 500 ? "validation_error" : "internal_error";
}

/** tRPC's own refusal says only PAYLOAD_TOO_LARGE: say which limit (TRPC_MAX_BODY_BYTES). */
function tooLarge(ctx: TrpcContext | undefined): string {
  return ctx ? `The request body is larger than ${ctx.deps.config.trpcMaxBodyBytes} bytes.` : "The request body is too large.";
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error, ctx }) {
    const code = catalogCode(error);
    // Nothing but catalog errors and input problems reaches the client in words; the detail is logged (see router.ts onError).
    const message = code === "internal_error" ? "Internal error." : error.code === "PAYLOAD_TOO_LARGE" ? tooLarge(ctx) : error.message;
    return { ...shape, message, data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, paytami_code: code } };
  },
});

/** Domain errors become tRPC errors with their catalog code's status, keeping the DomainError as the cause. */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof DomainError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: TRPC_CODE[cause.code], message: cause.message, cause });
  }
  return result;
});

export const router = t.router;

/** Every procedure so far is for operators: the operator's internal token as `Authorization: Bearer …` (no other process's credential). */
export const operatorProcedure = t.procedure.use(domainErrors).use(({ ctx, next }) => {
  const operator: OperatorCaller = ctx.resolveOperator(ctx.bearer);
  return next({ ctx: { ...ctx, operator } });
});
