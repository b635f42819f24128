import type { Context } from "koa";
import type { CallMeta } from "../../../proto/core-client.ts";
import type { FacadeState } from "../middleware/request-context.ts";

export function callMeta(ctx: Context): CallMeta {
  return { requestId: (ctx.state as FacadeState).requestId, authorization: ctx.get("Authorization") || undefined };
}
