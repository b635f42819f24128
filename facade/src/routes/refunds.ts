import type { Router } from "@koa/router";
import type { CoreClient } from "../../../proto/core-client.ts";
import { refundJson } from "../../../proto/refund-json.ts";
import { createRefundRequest, listRefundsRequest } from "../refund-request-shapes.ts";
import { callMeta } from "./call-meta.ts";
import { idempotentPost, keyAndReason, readOr } from "./idempotent-post.ts";
import { route } from "../openapi/operation.ts";
import { createRefund, getRefund, listRefunds } from "../openapi/operations/refunds.ts";

export function refundRoutes(router: Router, core: CoreClient, bodyLimitBytes: number): void {
  idempotentPost(router, createRefund, bodyLimitBytes, {
    read: createRefundRequest,
    malformed: keyAndReason,
    create: (request, meta) => core.refunds.createRefund(request, meta),
    json: (answer) => refundJson(answer.refund!),
  });

  route(router, listRefunds, async (ctx) => {
    const request = await readOr(
      () => listRefundsRequest(ctx.query),
      (malformed_request) => ({ malformed_request }),
    );
    const page = await core.refunds.listRefunds(request, callMeta(ctx));
    ctx.body = { data: page.data.map(refundJson), has_more: page.has_more };
  });

  route(router, getRefund, async (ctx) => {
    const { refund } = await core.refunds.getRefund({ id: ctx.params.id! }, callMeta(ctx));
    ctx.body = refundJson(refund!);
  });
}
