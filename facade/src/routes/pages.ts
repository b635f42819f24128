import type Router from "@koa/router";
import type { Context } from "koa";
import { CoreError, type CoreClient } from "../../../proto/core-client.ts";
import { pickLocale, TEXT } from "../pages/locale.ts";
import { messagePage, paymentPage } from "../pages/payment-page.ts";
import { callMeta } from "./call-meta.ts";

/** Hosted pages: HTML for people, so failures are pages too, never JSON. */
export function pageRoutes(router: Router, core: CoreClient): void {
  const render = async (ctx: Context, embedded: boolean) => {
    const locale = pickLocale(ctx.get("Accept-Language"));
    const t = TEXT[locale];
    ctx.set("Cache-Control", "no-store");
    ctx.set("Content-Language", locale);
    // No scripts or outside resources; the embed token must not leak through Referer;
    // only the embed page may be framed (by the merchant's site), the payment page never.
    ctx.set("Content-Security-Policy", `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors ${embedded ? "*" : "'none'"}`);
    ctx.set("Referrer-Policy", "no-referrer");
    if (!embedded) ctx.set("X-Frame-Options", "DENY");
    ctx.type = "text/html; charset=utf-8";
    const id = ctx.params.id!;
    try {
      if (embedded) {
        const token = typeof ctx.query.token === "string" ? ctx.query.token : "";
        const { valid } = await core.checkout.verifyEmbedToken({ payment_id: id, token }, callMeta(ctx));
        if (!valid) {
          ctx.status = 403;
          ctx.body = messagePage(locale, t.linkExpiredTitle, t.linkExpired);
          return;
        }
      }
      ctx.body = paymentPage(await core.checkout.getHostedPayment({ payment_id: id }, callMeta(ctx)), locale);
    } catch (error) {
      if (error instanceof CoreError && error.code === "unknown_payment") {
        ctx.status = 404;
        ctx.body = messagePage(locale, t.notFoundTitle, t.notFound);
        return;
      }
      throw error;
    }
  };
  router.get("/pay/:id", (ctx) => render(ctx, false));
  router.get("/embed/:id", (ctx) => render(ctx, true));
}
