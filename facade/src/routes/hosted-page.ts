import { toPageBrand } from "../pages/branding.ts";
import type { RouterContext } from "@koa/router";
import type { Context } from "koa";
import { h, type JSX } from "preact";
import { type CoreClient } from "../../../proto/core-client.ts";
import { CoreError } from "../../../proto/core-error.ts";
import { currencyCodec, methodTypeCodec, modeCodec, paymentStatusCodec } from "../../../proto/enums.ts";
import type { GetHostedPaymentResponse } from "../../../proto/gen/paytami/v1/checkout.ts";
import type { FacadeState } from "../middleware/request-context.ts";
import { RESOLVED_REASONS, type HostedPayment, type ResolvedReason } from "../pages/hosted-payment.ts";
import { pickLocale, TEXT, type Locale } from "../pages/locale.ts";
import { MessagePage } from "../pages/message-page.tsx";
import type { PageFrame } from "../pages/payment-page.tsx";
import { renderDocument } from "../pages/render-document.ts";
import { callMeta } from "./call-meta.ts";
import { setPageHeaders } from "./page-headers.ts";

/** The core's answer in the pages' terms: the one place that knows the wire field names. */
export function toHostedPayment(res: GetHostedPaymentResponse): HostedPayment {
  return {
    id: res.payment_id,
    status: paymentStatusCodec.toWire(res.status),
    amount: res.amount,
    currency: currencyCodec.toWire(res.currency),
    description: res.description,
    merchantName: res.merchant_trade_name,
    method: methodTypeCodec.toWire(res.method_type),
    mode: modeCodec.toWire(res.mode),
    successUrl: res.success_url,
    cancelUrl: res.cancel_url,
    resolved: res.payable ? undefined : resolvedReason(res.reason),
    card: res.card_brand && res.card_last4 ? { brand: res.card_brand, last4: res.card_last4 } : undefined,
    bankTransfer: res.bank_transfer
      ? {
          bankName: res.bank_transfer.bank_name,
          accountName: res.bank_transfer.account_name,
          accountNumber: res.bank_transfer.account_number,
          reference: res.bank_transfer.reference,
        }
      : undefined,
    challengePending: res.challenge_pending,
    embedOrigins: res.embed_origins,
    brand: toPageBrand(res.branding),
  };
}

function resolvedReason(reason: string | undefined): ResolvedReason {
  return RESOLVED_REASONS.find((r) => r === reason) ?? "already_paid";
}

export type PageKind = "pay" | "embed";

/** What one hosted-page request knows about itself: its locale, where it lives, and how to answer. */
export interface HostedPageRequest {
  ctx: Context;
  core: CoreClient;
  kind: PageKind;
  id: string;
  locale: Locale;
  /** The page's frame before the payment is known (the embed's message targets come with the payment). */
  frame: PageFrame;
}

// A CSP source expression is an origin without anything a policy treats as syntax.
const PLAIN_ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d+)?$/;

function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return PLAIN_ORIGIN.test(origin) ? origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The payment page is never framed; the embed is framed by anyone in test mode and by the merchant's
 * registered origins only in live mode (and by nobody while none is registered). Its forms may be
 * redirected on to the shop's return URLs.
 */
function setHostedPageHeaders(page: HostedPageRequest, payment?: HostedPayment): void {
  const returnOrigins = payment ? [...new Set([payment.successUrl, payment.cancelUrl].map(originOf).filter((o) => o !== undefined))] : [];
  let frameAncestors: string | undefined;
  if (page.kind === "embed") {
    const registered = payment?.embedOrigins.filter((o) => PLAIN_ORIGIN.test(o)) ?? [];
    frameAncestors = payment?.mode === "live" ? registered.join(" ") || "'none'" : "*";
  }
  setPageHeaders(page.ctx, page.locale, { formTargets: returnOrigins, ...(frameAncestors ? { frameAncestors } : {}) });
}

/** The frame a page of this payment renders in: the embed's postMessage goes to the registered origins in live mode. */
export function frameFor(page: HostedPageRequest, payment: HostedPayment): PageFrame {
  if (!page.frame.embedded) return page.frame;
  return { ...page.frame, messageTargets: payment.mode === "live" ? payment.embedOrigins.filter((o) => PLAIN_ORIGIN.test(o)) : ["*"] };
}

export function sendPage(page: HostedPageRequest, status: number, element: JSX.Element, payment?: HostedPayment): void {
  setHostedPageHeaders(page, payment);
  page.ctx.status = status;
  page.ctx.type = "text/html; charset=utf-8";
  page.ctx.body = renderDocument(element);
}

export type MessageKind = "notFound" | "linkExpired" | "unavailable" | "linkFull" | "error";

export function sendMessage(page: HostedPageRequest, status: number, which: MessageKind): void {
  const t = TEXT[page.locale];
  sendPage(page, status, h(MessagePage, { locale: page.locale, title: t[`${which}Title`], message: t[which] }));
}

/** 303 See Other: after a post the browser fetches the target with GET, so a reload never posts again. */
export function seeOther(page: HostedPageRequest, url: string, payment?: HostedPayment): void {
  setHostedPageHeaders(page, payment);
  page.ctx.status = 303;
  page.ctx.redirect(url);
}

export function selfUrl(page: HostedPageRequest): string {
  return `${page.frame.path}${page.frame.query}`;
}

/**
 * Runs a hosted-page handler: the request's locale and frame, the embed's token check first, and
 * every failure as a page (never JSON, never a detail: that goes to the log).
 */
export function hostedPage(core: CoreClient, kind: PageKind, handler: (page: HostedPageRequest) => Promise<void>) {
  return async (ctx: RouterContext) => {
    const id = ctx.params.id!;
    const token = typeof ctx.query.token === "string" ? ctx.query.token : "";
    const page: HostedPageRequest = {
      ctx,
      core,
      kind,
      id,
      locale: pickLocale(ctx.get("Accept-Language")),
      frame: {
        path: `/${kind}/${encodeURIComponent(id)}`,
        query: kind === "embed" ? `?token=${encodeURIComponent(token)}` : "",
        embedded: kind === "embed",
        messageTargets: [],
      },
    };
    try {
      if (kind === "embed") {
        const { valid } = await core.checkout.verifyEmbedToken({ payment_id: id, token }, callMeta(ctx));
        if (!valid) return sendMessage(page, 403, "linkExpired");
      }
      await handler(page);
    } catch (error) {
      if (error instanceof CoreError && error.code === "unknown_payment") return sendMessage(page, 404, "notFound");
      if (error instanceof CoreError && error.code === "processor_unavailable") return sendMessage(page, 503, "unavailable");
      // The payment's link has no room left for it (max_payments): refused before any charge.
      if (error instanceof CoreError && error.code === "payment_link_not_payable") return sendMessage(page, 409, "linkFull");
      (ctx.state as FacadeState).log.error({ err: error }, "hosted page failed");
      sendMessage(page, 500, "error");
    }
  };
}
