import type { Router } from "@koa/router";
import type { CoreClient } from "../../../proto/core-client.ts";
import { callMeta } from "./call-meta.ts";
import { route } from "../openapi/operation.ts";
import { getCheckoutSession, redirectToCheckout } from "../openapi/operations/checkout.ts";

/** Spec 4.4 and 4.5: public, the payment id is the credential; never cached. */
export function checkoutRoutes(router: Router, core: CoreClient): void {
  route(router, redirectToCheckout, async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    const { payment_page_url } = await core.checkout.resolveCheckout({ payment_id: ctx.params.id! }, callMeta(ctx));
    ctx.status = 302;
    ctx.redirect(payment_page_url);
  });

  route(router, getCheckoutSession, async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    const session = await core.checkout.getCheckoutSession({ payment_id: ctx.params.id! }, callMeta(ctx));
    ctx.body = session.payable
      ? { payment_id: session.payment_id, payable: true, checkout_url: session.checkout_url }
      : { payment_id: session.payment_id, payable: false, reason: session.reason };
  });
}
