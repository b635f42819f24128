import type { Router } from "@koa/router";
import type { CoreClient } from "../../../proto/core-client.ts";
import { paymentJson } from "../../../proto/payment-json.ts";
import { createPaymentRequest, listPaymentsRequest } from "../request-shapes.ts";
import { callMeta } from "./call-meta.ts";
import { idempotentPost, keyAndReason, readOr } from "./idempotent-post.ts";
import { route } from "../openapi/operation.ts";
import { cancelPayment, createPayment, getPayment, listPayments } from "../openapi/operations/payments.ts";

export function paymentRoutes(router: Router, core: CoreClient, bodyLimitBytes: number): void {
  idempotentPost(router, createPayment, bodyLimitBytes, {
    read: createPaymentRequest,
    malformed: keyAndReason,
    create: (request, meta) => core.payments.createPayment(request, meta),
    json: (answer) => paymentJson(answer.payment!),
  });

  route(router, listPayments, async (ctx) => {
    const request = await readOr(
      () => listPaymentsRequest(ctx.query),
      (malformed_request) => ({ malformed_request }),
    );
    const page = await core.payments.listPayments(request, callMeta(ctx));
    ctx.body = { data: page.data.map(paymentJson), has_more: page.has_more };
  });

  // No body is defined for it; the optional Idempotency-Key makes a retried cancel replay its answer.
  route(router, cancelPayment, async (ctx) => {
    const idempotencyKey = ctx.get("Idempotency-Key");
    const result = await core.payments.cancelPayment(
      { id: ctx.params.id!, idempotency_key: idempotencyKey === "" ? undefined : idempotencyKey },
      callMeta(ctx),
    );
    if (result.replayed) ctx.set("Idempotent-Replayed", "true");
    ctx.body = paymentJson(result.payment!);
  });

  route(router, getPayment, async (ctx) => {
    const { payment } = await core.payments.getPayment({ id: ctx.params.id! }, callMeta(ctx));
    ctx.body = paymentJson(payment!);
  });
}
