import { formatMoney } from "./format-money.ts";
import type { HostedPayment, ResolvedReason } from "./hosted-payment.ts";
import { Layout } from "./layout.tsx";
import { TEXT, type Locale } from "./locale.ts";
import { returnUrl } from "./return-url.ts";

interface PageProps {
  payment: HostedPayment;
  locale: Locale;
}

/** The hosted payment page: who is paid, how much, for what. */
export function PaymentPage({ payment, locale }: PageProps) {
  const t = TEXT[locale];
  return (
    <Layout locale={locale} title={t.title}>
      <h1>
        {t.payTo} {payment.merchantName}
      </h1>
      <p class="amount" data-amount={payment.amount} data-currency={payment.currency}>
        {formatMoney(payment.amount, payment.currency)}
      </p>
      {payment.description ? <p>{payment.description}</p> : null}
      <dl>
        <dt>{t.method}</dt>
        <dd>{payment.method === "bank_transfer" ? t.bank_transfer : t.card}</dd>
        <dt>{t.reference}</dt>
        <dd data-payment-id="">{payment.id}</dd>
      </dl>
      {payment.mode === "test" ? <p class="note">{t.test}</p> : null}
      <p>{t.comingSoon}</p>
      <a class="button secondary" href={returnUrl(payment.cancelUrl, payment.id)}>
        {t.cancel}
      </a>
    </Layout>
  );
}

/** A payment that accepts no further attempt: why, and the way back to the shop. */
export function ResolvedPaymentPage({ payment, locale, reason }: PageProps & { reason: ResolvedReason }) {
  const t = TEXT[locale];
  const back = reason === "already_paid" ? payment.successUrl : payment.cancelUrl;
  return (
    <Layout locale={locale} title={t.resolvedTitle}>
      <h1>{t.resolvedTitle}</h1>
      <p data-reason={reason}>{t.reasons[reason]}</p>
      <dl>
        <dt>{t.amount}</dt>
        <dd>{formatMoney(payment.amount, payment.currency)}</dd>
        <dt>{t.reference}</dt>
        <dd data-payment-id="">{payment.id}</dd>
      </dl>
      <a class="button" href={returnUrl(back, payment.id)}>
        {t.backToStore}
      </a>
    </Layout>
  );
}
