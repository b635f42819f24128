import { toPageBrand } from "../pages/branding.ts";
import { randomUUID } from "node:crypto";
import type { Router, RouterContext } from "@koa/router";
import type { Context } from "koa";
import { h, type JSX } from "preact";
import { type CoreClient } from "../../../proto/core-client.ts";
import { CoreError } from "../../../proto/core-error.ts";
import { currencyCodec, linkNotPayableReasonCodec, methodTypeCodec, modeCodec, paymentStatusCodec } from "../../../proto/enums.ts";
import type { ErrorCode } from "../../../proto/error-catalog.ts";
import { LinkAmountType, type GetPublicLinkResponse } from "../../../proto/gen/paytami/v1/link.ts";
import type { FacadeConfig } from "../config.ts";
import { HTTP_STATUS } from "../error-map.ts";
import { readFormBody } from "../middleware/form-body.ts";
import type { FacadeState } from "../middleware/request-context.ts";
import { PublicError } from "../public-error.ts";
import { formatMoney } from "../../../proto/format-money.ts";
import type { HostedLink, LinkForm, PayMethod } from "../pages/hosted-link.ts";
import { LinkDonePage, LinkPage, NotPayableLinkPage, type LinkDonePayment, type LinkOutcome } from "../pages/link-page.tsx";
import { LINK_SCRIPT, LINK_SCRIPT_PATH } from "../pages/link-script.ts";
import { LINK_TEXT } from "../pages/link-text.ts";
import { pickLocale, type Locale } from "../pages/locale.ts";
import { MessagePage } from "../pages/message-page.tsx";
import { qrCodeSvg } from "../pages/qr-svg.ts";
import { renderDocument } from "../pages/render-document.ts";
import { parseTypedAmount } from "../pages/typed-amount.ts";
import { callMeta } from "./call-meta.ts";
import { serveAsset, setPageHeaders } from "./page-headers.ts";

/** A form has three short fields; anything bigger is not the page's. */
const FORM_LIMIT_BYTES = 4 * 1024;
/** More digits than any amount the core accepts (DESIGN: at most 16). */
const MAX_AMOUNT_DIGITS = 16;

/** The core's answer in the pages' terms: the one place that knows the wire field names. */
function toHostedLink(res: GetPublicLinkResponse, publicBaseUrl: string): HostedLink {
  return {
    id: res.id,
    title: res.title,
    description: res.description,
    merchantName: res.merchant_trade_name,
    currency: currencyCodec.toWire(res.currency),
    mode: modeCodec.toWire(res.mode),
    amount:
      res.amount_type === LinkAmountType.LINK_AMOUNT_TYPE_FIXED
        ? { fixed: res.fixed_amount_minor ?? "0" }
        : { min: res.min_amount_minor ?? "0", max: res.max_amount_minor ?? "0" },
    methods: res.methods.map((m) => methodTypeCodec.toWire(m)),
    notPayable: res.payable || res.not_payable_reason === undefined ? undefined : linkNotPayableReasonCodec.toWire(res.not_payable_reason),
    url: `${publicBaseUrl}/l/${encodeURIComponent(res.id)}`,
    brand: toPageBrand(res.branding),
  };
}

const PAY_METHODS: readonly string[] = ["card", "bank_transfer"] satisfies PayMethod[];

/**
 * The customer's link pages (DESIGN §4 "Payment links"): the page with its form, the form's POST
 * (PayLink, then 303 to the payment's checkout_url), the landing page for links without return
 * URLs, and the QR code. HTML for people: every failure is a page too, never JSON.
 */
export function linkPageRoutes(router: Router, core: CoreClient, config: FacadeConfig): void {
  const publicOrigin = new URL(config.publicBaseUrl).origin;

  const send = (ctx: Context, status: number, page: JSX.Element) => {
    ctx.status = status;
    ctx.type = "text/html; charset=utf-8";
    ctx.body = renderDocument(page);
  };
  const getLink = async (ctx: RouterContext) => toHostedLink(await core.links.getPublicLink({ link_id: ctx.params.id! }, callMeta(ctx)), config.publicBaseUrl);

  /** The page of a link as it stands: the form while payable (with what the customer sent, if anything), else why not. */
  const linkPage = (link: HostedLink, locale: Locale, form: Omit<LinkForm, "idempotencyKey"> = {}) =>
    link.notPayable
      ? h(NotPayableLinkPage, { link, locale, reason: link.notPayable })
      : // One key per page load: submitting this page twice is one payment, loading it again is a new one.
        h(LinkPage, { link, locale, form: { ...form, idempotencyKey: randomUUID() } });

  /** Runs a page handler; a core failure becomes the matching page. */
  const page = (handle: (ctx: RouterContext, locale: Locale) => Promise<void>) => async (ctx: RouterContext) => {
    const locale = pickLocale(ctx.get("Accept-Language"));
    // Scripts: the link page's own submit-once script; the form is redirected to the checkout URL.
    setPageHeaders(ctx, locale, { formTargets: [publicOrigin] });
    try {
      await handle(ctx, locale);
    } catch (error) {
      const t = LINK_TEXT[locale];
      const message = (title: string, text: string) => h(MessagePage, { locale, title, message: text });
      if (error instanceof CoreError && error.code === "unknown_payment_link") return send(ctx, 404, message(t.notFoundTitle, t.notFound));
      if (error instanceof CoreError && error.code === "processor_unavailable") return send(ctx, 503, message(t.unavailableTitle, t.unavailablePage));
      // The detail goes to the log, never to the customer.
      (ctx.state as FacadeState).log.error({ err: error }, "link page failed");
      send(ctx, 500, message(t.errorTitle, t.error));
    }
  };

  router.get(
    "/l/:id",
    page(async (ctx, locale) => send(ctx, 200, linkPage(await getLink(ctx), locale))),
  );

  router.post(
    "/l/:id",
    page(async (ctx, locale) => {
      const t = LINK_TEXT[locale];
      const link = await getLink(ctx);
      if (link.notPayable) return send(ctx, HTTP_STATUS.payment_link_not_payable, linkPage(link, locale));
      let fields: URLSearchParams;
      try {
        fields = await readFormBody(ctx, FORM_LIMIT_BYTES);
      } catch (error) {
        if (!(error instanceof PublicError)) throw error;
        return send(ctx, 400, linkPage(link, locale, { formError: t.rejected }));
      }
      const methodText = fields.get("method_type") ?? undefined;
      const method = PAY_METHODS.includes(methodText ?? "") ? (methodText as PayMethod) : undefined;
      const amountText = "fixed" in link.amount ? undefined : (fields.get("amount") ?? "");
      const range =
        "fixed" in link.amount ? undefined : t.amountRange(formatMoney(link.amount.min, link.currency), formatMoney(link.amount.max, link.currency));
      const again = (status: number, problem: Pick<LinkForm, "amountError" | "formError">) =>
        send(ctx, status, linkPage(link, locale, { amountText, method, ...problem }));

      // The amount as people type it, read here with text arithmetic; the core checks it against the link.
      let amount: string | undefined;
      if (amountText !== undefined && amountText.trim() !== "") {
        amount = parseTypedAmount(amountText, link.currency);
        if (amount === undefined) return again(400, { amountError: t.amountFormat });
        if (amount.length > MAX_AMOUNT_DIGITS) return again(400, { amountError: range });
      }
      try {
        const { payment } = await core.links.payLink(
          {
            link_id: link.id,
            idempotency_key: fields.get("idempotency_key") ?? "",
            amount,
            method_type: methodText,
            client_ip: ctx.ip,
          },
          callMeta(ctx),
        );
        ctx.status = 303;
        ctx.redirect(payment!.checkout_url);
      } catch (error) {
        if (!(error instanceof CoreError) || !error.fromCore) throw error;
        const status = HTTP_STATUS[error.code];
        const amountError = AMOUNT_ERRORS[error.code];
        if (amountError === "required") return again(status, { amountError: t.amountRequired });
        if (amountError === "range") return again(status, { amountError: range });
        switch (error.code) {
          case "payment_link_not_payable":
            // It stopped being payable since the page was shown: say why, as a fresh load would.
            return send(ctx, status, linkPage(await getLink(ctx), locale));
          case "rate_limited": {
            const seconds = error.retryAfterSeconds ?? 60;
            ctx.set("Retry-After", String(seconds));
            return again(status, { formError: t.rateLimited(seconds) });
          }
          case "processor_unavailable":
            return again(status, { formError: t.unavailable });
          case "unknown_payment_link":
          case "internal_error":
            throw error;
          default:
            return again(status, { formError: method ? t.rejected : t.methodRequired });
        }
      }
    }),
  );

  router.get(
    "/l/:id/done",
    page(async (ctx, locale) => {
      const link = await getLink(ctx);
      const paymentId = typeof ctx.query.payment_id === "string" ? ctx.query.payment_id : undefined;
      let outcome: LinkOutcome = "unknown";
      let payment: LinkDonePayment | undefined;
      if (paymentId) {
        try {
          // Only a payment this link took, in its mode: the URL is anyone's to write.
          const found = await core.links.getLinkPayment({ link_id: link.id, payment_id: paymentId }, callMeta(ctx));
          outcome = DONE_OUTCOMES[paymentStatusCodec.toWire(found.status)];
          payment = { id: found.payment_id, amount: found.amount, currency: currencyCodec.toWire(found.currency) };
        } catch (error) {
          if (!(error instanceof CoreError && error.code === "unknown_payment")) throw error;
        }
      }
      send(ctx, 200, h(LinkDonePage, { link, locale, outcome, payment }));
    }),
  );

  router.get("/l/:id/qr.svg", async (ctx: RouterContext) => {
    let link: HostedLink;
    try {
      link = await getLink(ctx);
    } catch (error) {
      if (error instanceof CoreError && error.code === "unknown_payment_link") {
        ctx.status = 404;
        ctx.type = "text/plain; charset=utf-8";
        ctx.body = "No payment link at this address.\n";
        return;
      }
      throw error;
    }
    const svg = qrCodeSvg(link.url);
    // The code depends only on the link's id and the public base URL, so it may be kept a day.
    ctx.set("Cache-Control", "public, max-age=86400");
    ctx.set("Content-Security-Policy", "default-src 'none'");
    ctx.type = "image/svg+xml";
    ctx.body = svg;
  });

  serveAsset(router, LINK_SCRIPT_PATH, "text/javascript; charset=utf-8", LINK_SCRIPT);
}

/** Which pay errors are about the amount, shown next to its field. */
const AMOUNT_ERRORS: Partial<Record<ErrorCode, "required" | "range">> = {
  amount_required: "required",
  amount_below_minimum: "range",
  amount_above_maximum: "range",
};

/**
 * What the landing page says for each status of the link's own payment: thanks once captured (and
 * while only partly refunded), "not completed" once it can no longer be paid; anything still open,
 * refunded or disputed gets the page that claims nothing. Every status is listed, so a new one must
 * be decided here.
 */
const DONE_OUTCOMES: Record<ReturnType<typeof paymentStatusCodec.toWire>, LinkOutcome> = {
  created: "unknown",
  processing: "unknown",
  authorized: "unknown",
  captured: "paid",
  pending_settlement: "paid",
  settled_to_paytami: "paid",
  available_to_merchant: "paid",
  partially_refunded: "paid",
  refunded: "unknown",
  chargeback: "unknown",
  failed: "not_completed",
  canceled: "not_completed",
  expired: "not_completed",
};
