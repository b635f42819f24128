import { initTRPC, TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { ErrorCode } from "../../../proto/error-catalog.ts";
import type { OperatorCaller, ServiceCaller, SessionCaller } from "../domain/caller.ts";
import { resolveSession } from "../domain/dashboard/sessions.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { DomainError } from "../domain/errors.ts";
import type { FacadeCheck, OperatorCheck } from "../domain/service-credentials.ts";
import { unitOfWork } from "../domain/unit-of-work.ts";

/**
 * What the facade forwards with a dashboard call (dashboard contract): the browser's session token
 * from its cookie, the browser's address and User-Agent. Read only once the facade's credential is
 * proven (dashboardPublicProcedure); an operator's call ignores them.
 */
export interface ForwardedBrowser {
  sessionToken: string | undefined;
  clientIp: string | undefined;
  userAgent: string | undefined;
}

/**
 * The session headers of this response, for the facade to turn into its cookie: the core never
 * reads or writes cookies. Set: a new session's token and lifetime; clear: the presented session
 * has ended or is unknown.
 */
export interface SessionHeaders {
  set?: { token: string; maxAgeSeconds: number };
  clear?: true;
}

/** Per request: the core's dependencies and the credential as presented (resolved by `operatorProcedure` or `dashboardPublicProcedure`). */
export interface TrpcContext {
  deps: CoreDeps;
  bearer: string | undefined;
  resolveOperator: OperatorCheck;
  resolveFacade: FacadeCheck;
  browser: ForwardedBrowser;
  /** Filled by dashboard procedures, written as X-Paytami-Session-Set / -Clear (router.ts responseMeta). */
  sessionHeaders: SessionHeaders;
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
    const retryAfter = error.cause instanceof DomainError ? error.cause.retryAfterSeconds : undefined;
    return {
      ...shape,
      message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        paytami_code: code,
        // rate_limited: whole seconds until another attempt is admitted (also the response's Retry-After).
        ...(retryAfter !== undefined ? { retry_after: retryAfter } : {}),
      },
    };
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

/** The operator's procedures: the operator's internal token as `Authorization: Bearer …` (no other process's credential). */
export const operatorProcedure = t.procedure.use(domainErrors).use(({ ctx, next }) => {
  const operator: OperatorCaller = ctx.resolveOperator(ctx.bearer);
  return next({ ctx: { ...ctx, operator } });
});

/**
 * The dashboard's procedures without a session (signIn, acceptInvite, resetPassword, inviteInfo):
 * the facade's own credential, and no other (the operator's token opens no dashboard procedure).
 */
export const dashboardPublicProcedure = t.procedure.use(domainErrors).use(({ ctx, next }) => {
  const facade: ServiceCaller<"facade"> = ctx.resolveFacade(ctx.bearer);
  return next({ ctx: { ...ctx, facade } });
});

const sessionEnded = () => new DomainError("unauthorized", "You are not signed in, or your session has ended; sign in again.");

/**
 * The dashboard's procedures for a signed-in user: the facade's credential and a session that has
 * not ended. Its caller is the session's merchant, mode and role (read afresh on every call). A
 * presented session that has ended or is unknown is refused, and the facade told to clear its cookie.
 */
export const dashboardSessionProcedure = dashboardPublicProcedure.use(async ({ ctx, next }) => {
  const token = ctx.browser.sessionToken;
  if (!token) throw sessionEnded();
  const session: SessionCaller | undefined = await resolveSession(ctx.deps, unitOfWork(ctx.deps), token, ctx.browser.clientIp);
  if (!session) {
    ctx.sessionHeaders.clear = true;
    throw sessionEnded();
  }
  return next({ ctx: { ...ctx, session } });
});
