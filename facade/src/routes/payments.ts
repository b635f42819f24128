import type { Router, RouterContext } from "@koa/router";
import type { Context } from "koa";
import type { CoreClient } from "../../../proto/core-client.ts";
import { readJsonBody } from "../middleware/json-body.ts";
import { paymentJson } from "../../../proto/payment-json.ts";
import { PublicError } from "../public-error.ts";
import { createPaymentRequest, listPaymentsRequest } from "../request-shapes.ts";
import { callMeta } from "./call-meta.ts";

/**
 * What `parse` reads from the request, or, when the client sent something
 * unreadable, `malformed(reason)`: the core reports it as a validation_error
 * in its place in the check order (after the Idempotency-Key and the API key).
 */
export async function readOr<T>(parse: () => T | Promise<T>, malformed: (reason: string) => T): Promise<T> {
  try {
    return await parse();
  } catch (error) {
    if (error instanceof PublicError) return malformed(error.message);
    throw error;
  }
}

export function paymentRoutes(router: Router, core: CoreClient, bodyLimitBytes: number): void {
  router.post("/v1/payments", async (ctx: Context) => {
    const idempotencyKey = ctx.get("Idempotency-Key");
    const request = await readOr(
      async () => createPaymentRequest(await readJsonBody(ctx, bodyLimitBytes), idempotencyKey),
      (malformed_request) => ({ idempotency_key: idempotencyKey, malformed_request }),
    );
    const result = await core.payments.createPayment(request, callMeta(ctx));
    ctx.status = 201;
    if (result.replayed) ctx.set("Idempotent-Replayed", "true");
    ctx.body = paymentJson(result.payment!);
  });

  router.get("/v1/payments", async (ctx: Context) => {
    const request = await readOr(() => listPaymentsRequest(ctx.query), (malformed_request) => ({ malformed_request }));
    const page = await core.payments.listPayments(request, callMeta(ctx));
    ctx.body = { data: page.data.map(paymentJson), has_more: page.has_more };
  });

  // No body is defined for it; the optional Idempotency-Key makes a retried cancel replay its answer.
  router.post("/v1/payments/:id/cancel", async (ctx: RouterContext) => {
    const idempotencyKey = ctx.get("Idempotency-Key");
    const result = await core.payments.cancelPayment({ id: ctx.params.id!, idempotency_key: idempotencyKey === "" ? undefined : idempotencyKey }, callMeta(ctx));
    if (result.replayed) ctx.set("Idempotent-Replayed", "true");
    ctx.body = paymentJson(result.payment!);
  });

  router.get("/v1/payments/:id", async (ctx: RouterContext) => {
    const { payment } = await core.payments.getPayment({ id: ctx.params.id! }, callMeta(ctx));
    ctx.body = paymentJson(payment!);
  });
}
