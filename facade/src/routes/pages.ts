import type { Router, RouterContext } from "@koa/router";
import { h } from "preact";
import { type CoreClient } from "../../../proto/core-client.ts";
import { CoreError } from "../../../proto/core-error.ts";
import { CheckoutNext } from "../../../proto/gen/paytami/v1/checkout.ts";
import { readFormBody } from "../middleware/form-body.ts";
import { checkCardForm } from "../pages/card-form.ts";
import { CHECKOUT_SCRIPT, CHECKOUT_SCRIPT_PATH } from "../pages/checkout-script.ts";
import { checkoutStep, shopReturnUrl, type HostedPayment } from "../pages/hosted-payment.ts";
import { CheckoutPage, type CardFormState } from "../pages/payment-page.tsx";
import { returnUrl } from "../pages/return-url.ts";
import { STYLESHEET, STYLESHEET_PATH } from "../pages/stylesheet.ts";
import { PublicError } from "../public-error.ts";
import { callMeta } from "./call-meta.ts";
import { frameFor, hostedPage, seeOther, selfUrl, sendPage, toHostedPayment, type HostedPageRequest, type PageKind } from "./hosted-page.ts";
import { serveAsset } from "./page-headers.ts";

/** A card form is four short fields; anything bigger is not one. */
const FORM_LIMIT_BYTES = 8 * 1024;

/** The posted fields; a body that is not such a form (or too big) reads as none, and the page asks for them again. */
async function formFields(page: HostedPageRequest): Promise<URLSearchParams> {
  try {
    return await readFormBody(page.ctx, FORM_LIMIT_BYTES);
  } catch (error) {
    if (error instanceof PublicError) return new URLSearchParams();
    throw error;
  }
}

async function hostedPayment(page: HostedPageRequest): Promise<HostedPayment> {
  return toHostedPayment(await page.core.checkout.getHostedPayment({ payment_id: page.id }, callMeta(page.ctx)));
}

function showPayment(page: HostedPageRequest, payment: HostedPayment, status = 200, form?: CardFormState): void {
  sendPage(page, status, h(CheckoutPage, { payment, locale: page.locale, frame: frameFor(page, payment), form }), payment);
}

/**
 * Where the customer goes after an action. The payment page sends them to the shop once the payment
 * is resolved (success_url when paid, cancel_url otherwise, with payment_id); the embed never
 * navigates its parent: it shows its own page again, which tells the parent the outcome.
 */
function afterAction(page: HostedPageRequest, payment: HostedPayment | undefined, next: CheckoutNext): void {
  if (page.kind === "pay" && payment) {
    if (next === CheckoutNext.CHECKOUT_NEXT_REDIRECT_SUCCESS) return seeOther(page, returnUrl(payment.successUrl, payment.id), payment);
    if (next === CheckoutNext.CHECKOUT_NEXT_REDIRECT_CANCEL) return seeOther(page, returnUrl(payment.cancelUrl, payment.id), payment);
  }
  seeOther(page, selfUrl(page), payment);
}

/**
 * An action on a payment that no longer accepts it (paid meanwhile, a second click, another tab):
 * show the payment as it is now rather than an error.
 */
async function orShowCurrent(page: HostedPageRequest, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (error instanceof CoreError && error.code === "payment_not_payable") return seeOther(page, selfUrl(page));
    throw error;
  }
}

const view = async (page: HostedPageRequest) => showPayment(page, await hostedPayment(page));

const submitCard = async (page: HostedPageRequest) => {
  const form = await formFields(page);
  const input = {
    card_number: form.get("card_number") ?? "",
    card_expiry: form.get("card_expiry") ?? "",
    card_cvc: form.get("card_cvc") ?? "",
    card_name: form.get("card_name") ?? "",
  };
  // The CVC is never shown again; the rest is, so the customer fixes what is wrong instead of retyping.
  const values = { card_number: input.card_number, card_expiry: input.card_expiry, card_name: input.card_name };
  const again = async (status: number, state: CardFormState) => {
    const payment = await hostedPayment(page);
    showPayment(page, payment, checkoutStep(payment) === "card_form" ? status : 200, state);
  };
  const checked = checkCardForm(input, new Date());
  if (!checked.ok) return again(422, { values, errors: checked.errors });
  await orShowCurrent(page, async () => {
    try {
      const outcome = await page.core.checkout.submitCard({ payment_id: page.id, card: checked.card, client_ip: page.ctx.ip }, callMeta(page.ctx));
      afterAction(page, outcome.payment && toHostedPayment(outcome.payment), outcome.next);
    } catch (error) {
      // CARD_SUBMIT_LIMIT: nothing reached the processor; the form comes back with how long to wait.
      if (error instanceof CoreError && error.fromCore && error.code === "rate_limited") {
        const seconds = error.retryAfterSeconds ?? 60;
        page.ctx.set("Retry-After", String(seconds));
        return again(429, { values, notice: "rateLimited", retryAfterSeconds: seconds });
      }
      // The processor failed and charged nothing: the payment is still payable, so the form comes back.
      if (error instanceof CoreError && error.fromCore && error.code === "processor_unavailable") return again(503, { values, notice: "tryAgain" });
      if (error instanceof CoreError && error.code === "validation_error") return again(422, { values, notice: "rejectedByCore" });
      throw error;
    }
  });
};

/** The sandbox issuer's step: the cardholder's answer goes to the processor, whose answer decides the payment. */
const completeChallenge = async (page: HostedPageRequest) => {
  const confirmed = (await formFields(page)).get("confirmed") === "true";
  await orShowCurrent(page, async () => {
    const outcome = await page.core.checkout.completeChallenge({ payment_id: page.id, confirmed }, callMeta(page.ctx));
    afterAction(page, outcome.payment && toHostedPayment(outcome.payment), outcome.next);
  });
};

const startBankTransfer = async (page: HostedPageRequest) => {
  await orShowCurrent(page, async () => {
    const started = await page.core.checkout.startBankTransfer({ payment_id: page.id }, callMeta(page.ctx));
    afterAction(page, started.payment && toHostedPayment(started.payment), CheckoutNext.CHECKOUT_NEXT_WAIT);
  });
};

const cancel = async (page: HostedPageRequest) => {
  await orShowCurrent(page, async () => {
    const outcome = await page.core.checkout.cancelCheckout({ payment_id: page.id }, callMeta(page.ctx));
    afterAction(page, outcome.payment && toHostedPayment(outcome.payment), outcome.next);
  });
};

/**
 * The waiting state's poll: JSON, never cached. Once the payment is resolved, `next_url` is where the
 * page goes: the shop's return URL from the payment page, the embed page itself (which tells its parent).
 */
function statusRoute(core: CoreClient, kind: PageKind) {
  return async (ctx: RouterContext) => {
    ctx.set("Cache-Control", "no-store");
    const id = ctx.params.id!;
    const token = typeof ctx.query.token === "string" ? ctx.query.token : "";
    if (kind === "embed" && !(await core.checkout.verifyEmbedToken({ payment_id: id, token }, callMeta(ctx))).valid) {
      throw new PublicError("unauthorized", "The embed token is missing, expired or forged.", 403);
    }
    const payment = toHostedPayment(await core.checkout.getHostedPayment({ payment_id: id }, callMeta(ctx)));
    const self = kind === "embed" ? `/embed/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}` : `/pay/${encodeURIComponent(id)}`;
    const resolved = payment.resolved !== undefined;
    ctx.body = {
      payment_id: payment.id,
      status: payment.status,
      resolved,
      next_url: resolved ? (kind === "pay" ? shopReturnUrl(payment) : self) : null,
    };
  };
}

/** Hosted pages: HTML for people, so every failure is a page too, never JSON (the status poll aside). */
export function pageRoutes(router: Router, core: CoreClient): void {
  for (const kind of ["pay", "embed"] as const) {
    router.get(`/${kind}/:id`, hostedPage(core, kind, view));
    router.post(`/${kind}/:id`, hostedPage(core, kind, submitCard));
    router.post(`/${kind}/:id/challenge`, hostedPage(core, kind, completeChallenge));
    router.post(`/${kind}/:id/bank-transfer`, hostedPage(core, kind, startBankTransfer));
    router.post(`/${kind}/:id/cancel`, hostedPage(core, kind, cancel));
    router.get(`/${kind}/:id/status`, statusRoute(core, kind));
  }

  serveAsset(router, STYLESHEET_PATH, "text/css; charset=utf-8", STYLESHEET);
  serveAsset(router, CHECKOUT_SCRIPT_PATH, "text/javascript; charset=utf-8", CHECKOUT_SCRIPT);
}
