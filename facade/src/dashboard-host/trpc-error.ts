import type { Context } from "koa";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import type { ErrorCode } from "../../../proto/error-catalog.ts";

type TrpcCode = keyof typeof TRPC_ERROR_CODES_BY_KEY;

/**
 * An answer the dashboard's tRPC client reads like the core's own errors (same shape as the core's
 * errorFormatter: `data.paytami_code` is the catalog code): one error, or one per call of a batch.
 */
export function sendTrpcError(ctx: Context, status: number, code: TrpcCode, paytamiCode: ErrorCode, message: string): void {
  const error = { error: { message, code: TRPC_ERROR_CODES_BY_KEY[code], data: { code, httpStatus: status, paytami_code: paytamiCode } } };
  const calls = ctx.query.batch === "1" ? ctx.path.slice(ctx.path.lastIndexOf("/") + 1).split(",").length : 0;
  ctx.status = status;
  ctx.set("Cache-Control", "no-store");
  ctx.body = calls > 0 ? Array.from({ length: calls }, () => error) : error;
}
