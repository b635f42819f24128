import type { Context, Next } from "koa";
import { HTTP_STATUS } from "../error-map.ts";
import { CoreError } from "../../../proto/core-error.ts";
import { PublicError, publicErrorOf } from "../public-error.ts";
import type { FacadeState } from "./request-context.ts";

/** Every failure leaves as `{"error":{"code","message"}}`; anything unexpected is an internal_error without detail. */
export async function errorBody(ctx: Context, next: Next) {
  try {
    await next();
  } catch (error) {
    const publicError = asPublicError(error, ctx);
    ctx.status = publicError.status ?? HTTP_STATUS[publicError.code];
    ctx.set("Cache-Control", "no-store");
    if (publicError.retryAfterSeconds !== undefined) ctx.set("Retry-After", String(publicError.retryAfterSeconds));
    ctx.body = { error: { code: publicError.code, message: publicError.message } };
  }
}

function asPublicError(error: unknown, ctx: Context): PublicError {
  if (error instanceof PublicError) return error;
  const fromCore = error instanceof CoreError ? publicErrorOf(error) : undefined;
  if (fromCore) return fromCore;
  const status = (error as { status?: unknown }).status;
  // Koa's own client errors (e.g. an undecodable path) are the client's fault, never a 500.
  if ((error as { expose?: unknown }).expose === true && typeof status === "number" && status >= 400 && status < 500) {
    return new PublicError("validation_error", "The request is malformed.", status === 404 ? 404 : 400);
  }
  (ctx.state as FacadeState).log?.error({ err: error }, "unexpected error");
  return new PublicError("internal_error", "An unexpected error occurred.");
}
