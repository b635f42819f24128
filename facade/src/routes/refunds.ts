import type { Router, RouterContext } from "@koa/router";
import type { Context } from "koa";
import type { CoreClient } from "../../../proto/core-client.ts";
import { refundJson } from "../../../proto/refund-json.ts";
import { readJsonBody } from "../middleware/json-body.ts";
import { createRefundRequest, listRefundsRequest } from "../refund-request-shapes.ts";
import { callMeta } from "./call-meta.ts";
import { readOr } from "./payments.ts";

export function refundRoutes(router: Router, core: CoreClient, bodyLimitBytes: number): void {
  router.post("/v1/refunds", async (ctx: Context) => {
    const idempotencyKey = ctx.get("Idempotency-Key");
    const request = await readOr(
      async () => createRefundRequest(await readJsonBody(ctx, bodyLimitBytes), idempotencyKey),
      (malformed_request) => ({ idempotency_key: idempotencyKey, malformed_request }),
    );
    const result = await core.refunds.createRefund(request, callMeta(ctx));
    ctx.status = 201;
    if (result.replayed) ctx.set("Idempotent-Replayed", "true");
    ctx.body = refundJson(result.refund!);
  });

  router.get("/v1/refunds", async (ctx: Context) => {
    const request = await readOr(() => listRefundsRequest(ctx.query), (malformed_request) => ({ malformed_request }));
    const page = await core.refunds.listRefunds(request, callMeta(ctx));
    ctx.body = { data: page.data.map(refundJson), has_more: page.has_more };
  });

  router.get("/v1/refunds/:id", async (ctx: RouterContext) => {
    const { refund } = await core.refunds.getRefund({ id: ctx.params.id! }, callMeta(ctx));
    ctx.body = refundJson(refund!);
  });
}
