import type Router from "@koa/router";
import type { Context } from "koa";
import type { CoreClient } from "../core-client.ts";
import { callMeta } from "./call-meta.ts";

/** Spec 4.4 and 4.5: public, the payment id is the credential; never cached. */
export function checkoutRoutes(router: Router, core: CoreClient): void {
  router.get("/v1/checkout/:id", async (ctx: Context) => {
    ctx.set("Cache-Control", "no-store");
    const { paymentPageUrl } = await core.resolveCheckout(ctx.params.id!, callMeta(ctx));
    ctx.status = 302;
    ctx.redirect(paymentPageUrl);
  });

  router.get("/v1/payments/:id/checkout_session", async (ctx: Context) => {
    ctx.set("Cache-Control", "no-store");
    const session = await core.getCheckoutSession(ctx.params.id!, callMeta(ctx));
    ctx.body = session.payable
      ? { payment_id: session.paymentId, payable: true, checkout_url: session.checkoutUrl }
      : { payment_id: session.paymentId, payable: false, reason: session.reason };
  });
}
