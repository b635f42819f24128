import type Router from "@koa/router";
import type { Context } from "koa";
import { h, type JSX } from "preact";
import { CoreError, type CoreClient } from "../../../proto/core-client.ts";
import { currencyCodec, methodTypeCodec, modeCodec } from "../../../proto/enums.ts";
import type { GetHostedPaymentResponse } from "../../../proto/gen/paytami/v1/checkout.ts";
import type { FacadeState } from "../middleware/request-context.ts";
import { RESOLVED_REASONS, type HostedPayment, type ResolvedReason } from "../pages/hosted-payment.ts";
import { pickLocale, TEXT, type Locale } from "../pages/locale.ts";
import { MessagePage } from "../pages/message-page.tsx";
import { PaymentPage, ResolvedPaymentPage } from "../pages/payment-page.tsx";
import { renderDocument } from "../pages/render-document.ts";
import { STYLESHEET, STYLESHEET_PATH } from "../pages/stylesheet.ts";
import { callMeta } from "./call-meta.ts";

/** The core's answer in the pages' terms: the one place that knows the wire field names. */
function toHostedPayment(res: GetHostedPaymentResponse): HostedPayment {
  return {
    id: res.payment_id,
    amount: res.amount,
    currency: currencyCodec.toWire(res.currency),
    description: res.description,
    merchantName: res.merchant_trade_name,
    method: methodTypeCodec.toWire(res.method_type),
    mode: modeCodec.toWire(res.mode),
    successUrl: res.success_url,
    cancelUrl: res.cancel_url,
    resolved: res.payable ? undefined : resolvedReason(res.reason),
  };
}

function resolvedReason(reason: string | undefined): ResolvedReason {
  return RESOLVED_REASONS.find((r) => r === reason) ?? "already_paid";
}

/** Hosted pages: HTML for people, so every failure is a page too, never JSON. */
export function pageRoutes(router: Router, core: CoreClient): void {
  const render = async (ctx: Context, embedded: boolean) => {
    const locale = pickLocale(ctx.get("Accept-Language"));
    ctx.set("Cache-Control", "no-store");
    ctx.set("Content-Language", locale);
    // No scripts, no inline styles, nothing from elsewhere; the embed token must not leak through Referer;
    // only the embed page may be framed (by the merchant's site), the payment page never.
    ctx.set("Content-Security-Policy", `default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors ${embedded ? "*" : "'none'"}`);
    ctx.set("Referrer-Policy", "no-referrer");
    if (!embedded) ctx.set("X-Frame-Options", "DENY");
    const send = (status: number, page: JSX.Element) => {
      const html = renderDocument(page);
      ctx.status = status;
      ctx.type = "text/html; charset=utf-8";
      ctx.body = html;
    };
    const id = ctx.params.id!;
    try {
      if (embedded) {
        const token = typeof ctx.query.token === "string" ? ctx.query.token : "";
        const { valid } = await core.checkout.verifyEmbedToken({ payment_id: id, token }, callMeta(ctx));
        if (!valid) return send(403, message(locale, "linkExpired"));
      }
      const payment = toHostedPayment(await core.checkout.getHostedPayment({ payment_id: id }, callMeta(ctx)));
      send(200, payment.resolved ? h(ResolvedPaymentPage, { payment, locale, reason: payment.resolved }) : h(PaymentPage, { payment, locale }));
    } catch (error) {
      if (error instanceof CoreError && error.code === "unknown_payment") return send(404, message(locale, "notFound"));
      if (error instanceof CoreError && error.code === "processor_unavailable") return send(503, message(locale, "unavailable"));
      // The detail goes to the log, never to the customer.
      (ctx.state as FacadeState).log.error({ err: error }, "hosted page failed");
      send(500, message(locale, "error"));
    }
  };
  router.get("/pay/:id", (ctx) => render(ctx, false));
  router.get("/embed/:id", (ctx) => render(ctx, true));

  router.get(STYLESHEET_PATH, (ctx) => {
    ctx.set("Cache-Control", "public, max-age=31536000, immutable");
    ctx.type = "text/css; charset=utf-8";
    ctx.body = STYLESHEET;
  });
}

function message(locale: Locale, which: "notFound" | "linkExpired" | "unavailable" | "error"): JSX.Element {
  const t = TEXT[locale];
  return h(MessagePage, { locale, title: t[`${which}Title`], message: t[which] });
}
