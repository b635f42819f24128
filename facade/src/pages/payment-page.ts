import { currencyCodec } from "../../../proto/enums.ts";
import type { GetHostedPaymentResponse } from "../../../proto/gen/paytami/v1/checkout.ts";
import { MethodType, Mode } from "../../../proto/gen/paytami/v1/enums.ts";
import { formatMoney } from "./format-money.ts";
import { escapeHtml, layout, returnUrl } from "./html.ts";
import { TEXT, type Locale } from "./locale.ts";

/** The hosted payment page: who is paid, how much, for what; or why the payment is closed. */
export function paymentPage(payment: GetHostedPaymentResponse, locale: Locale): string {
  const t = TEXT[locale];
  const currency = currencyCodec.toWire(payment.currency);
  const amount = formatMoney(payment.amount, currency);
  const testNote = payment.mode === Mode.MODE_TEST ? `<p class="note">${t.test}</p>` : "";
  if (!payment.payable) {
    const reason = (payment.reason ?? "already_paid") as keyof typeof t.reasons;
    const back = reason === "already_paid" ? payment.success_url : payment.cancel_url;
    return layout(locale, t.resolvedTitle, `
<h1>${t.resolvedTitle}</h1>
<p data-reason="${escapeHtml(reason)}">${t.reasons[reason]}</p>
<dl><dt>${t.amount}</dt><dd>${escapeHtml(amount)}</dd><dt>${t.reference}</dt><dd data-payment-id>${escapeHtml(payment.payment_id)}</dd></dl>
<a class="button" href="${escapeHtml(returnUrl(back, payment.payment_id))}">${t.backToStore}</a>`);
  }
  const method = payment.method_type === MethodType.METHOD_TYPE_BANK_TRANSFER ? t.bank_transfer : t.card;
  return layout(locale, t.title, `
<h1>${t.payTo} ${escapeHtml(payment.merchant_trade_name)}</h1>
<p class="amount" data-amount="${escapeHtml(payment.amount)}" data-currency="${escapeHtml(currency)}">${escapeHtml(amount)}</p>
${payment.description ? `<p>${escapeHtml(payment.description)}</p>` : ""}
<dl><dt>${t.method}</dt><dd>${method}</dd><dt>${t.reference}</dt><dd data-payment-id>${escapeHtml(payment.payment_id)}</dd></dl>
${testNote}
<p>${t.comingSoon}</p>
<a class="button secondary" href="${escapeHtml(returnUrl(payment.cancel_url, payment.payment_id))}">${t.cancel}</a>`);
}

export function messagePage(locale: Locale, title: string, message: string): string {
  return layout(locale, title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
