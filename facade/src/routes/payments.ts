import type Router from "@koa/router";
import type { Context } from "koa";
import type { CoreClient, CallMeta } from "../core-client.ts";
import { readJsonBody } from "../middleware/json-body.ts";
import { paymentJson } from "../../../proto/payment-json.ts";
import { PublicError } from "../public-error.ts";
import { createPaymentRequest, listPaymentsRequest } from "../request-shapes.ts";
import { callMeta } from "./call-meta.ts";

const MIN_IDEMPOTENCY_KEY = 8;

/**
 * A malformed request from a client that is not even authenticated must still
 * get 401 (DESIGN §4 check order): shape errors are reported only once the
 * key has been checked.
 */
async function parseAfterAuth<T>(core: CoreClient, meta: CallMeta, parse: () => T | Promise<T>): Promise<T> {
  try {
    return await parse();
  } catch (error) {
    if (error instanceof PublicError) await core.authenticate(meta);
    throw error;
  }
}

export function paymentRoutes(router: Router, core: CoreClient, bodyLimitBytes: number): void {
  router.post("/v1/payments", async (ctx: Context) => {
    const key = ctx.get("Idempotency-Key");
    if (key.length < MIN_IDEMPOTENCY_KEY) {
      throw new PublicError("idempotency_key_required", `An Idempotency-Key header of at least ${MIN_IDEMPOTENCY_KEY} characters is required.`);
    }
    const meta = callMeta(ctx);
    const request = await parseAfterAuth(core, meta, async () => createPaymentRequest(await readJsonBody(ctx, bodyLimitBytes), key));
    const result = await core.createPayment(request, meta);
    ctx.status = 201;
    if (result.replayed) ctx.set("Idempotent-Replayed", "true");
    ctx.body = paymentJson(result.payment!);
  });

  router.get("/v1/payments", async (ctx: Context) => {
    const meta = callMeta(ctx);
    const request = await parseAfterAuth(core, meta, () => listPaymentsRequest(ctx.query));
    const page = await core.listPayments(request, meta);
    ctx.body = { data: page.data.map(paymentJson), has_more: page.hasMore };
  });

  router.get("/v1/payments/:id", async (ctx: Context) => {
    const { payment } = await core.getPayment(ctx.params.id!, callMeta(ctx));
    ctx.body = paymentJson(payment!);
  });
}
