import type { Router } from "@koa/router";
import type { CoreClient } from "../../../proto/core-client.ts";
import type { Payment } from "../../../proto/gen/paytami/v1/payment.ts";
import { paymentJson, type PaymentJson } from "../../../proto/payment-json.ts";
import { createPaymentRequest, listPaymentsRequest } from "../request-shapes.ts";
import { callMeta } from "./call-meta.ts";
import { idempotentPost, keyAndReason, readOr } from "./idempotent-post.ts";
import { route } from "../openapi/operation.ts";
import { cancelPayment, createPayment, getPayment, listPayments } from "../openapi/operations/payments.ts";

/**
 * The Payment's JSON as the core rendered it (CreatePayment/GetPayment `json`, asked for alone with
 * `json_only`), written through without a decode and re-encode; rebuilt from the message when a core
 * that predates the field answers (such a core also ignores `json_only` and sends the message).
 */
function jsonOf(answer: { payment?: Payment | undefined; json: Buffer }): Buffer | PaymentJson {
  return answer.json.length > 0 ? answer.json : paymentJson(answer.payment!);
}

export function paymentRoutes(router: Router, core: CoreClient, bodyLimitBytes: number): void {
  idempotentPost(router, createPayment, bodyLimitBytes, {
    read: createPaymentRequest,
    malformed: keyAndReason,
    create: (request, meta) => {
      request.json_only = true;
      return core.payments.createPayment(request, meta);
    },
    json: (answer) => jsonOf(answer),
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
    const answer = await core.payments.getPayment({ id: ctx.params.id!, json_only: true }, callMeta(ctx));
    const body = jsonOf(answer);
    if (Buffer.isBuffer(body)) ctx.type = "application/json";
    ctx.body = body;
  });
}
