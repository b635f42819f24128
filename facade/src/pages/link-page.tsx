import { formatMoney } from "../../../proto/format-money.ts";
import type { HostedLink, LinkForm, LinkNotPayableReason } from "./hosted-link.ts";
import { Layout } from "./layout.tsx";
import { LINK_SCRIPT_PATH } from "./link-script.ts";
import { LINK_TEXT } from "./link-text.ts";
import { TEXT, type Locale } from "./locale.ts";

interface LinkPageProps {
  link: HostedLink;
  locale: Locale;
}

/** "Q 150.00", or "Q 10.00 – Q 5,000.00" for a link where the customer chooses. */
function amountText(link: HostedLink): string {
  return "fixed" in link.amount
    ? formatMoney(link.amount.fixed, link.currency)
    : `${formatMoney(link.amount.min, link.currency)} – ${formatMoney(link.amount.max, link.currency)}`;
}

/** Open Graph and Twitter tags: a link shared in a chat previews with its title and amount. */
function PreviewTags({ link, locale }: LinkPageProps) {
  const description = [amountText(link), link.merchantName, link.description].filter(Boolean).join(" · ");
  return (
    <>
      <meta name="description" content={description} />
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content="Paytami" />
      <meta property="og:title" content={link.title} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={link.url} />
      <meta property="og:locale" content={locale === "es" ? "es_GT" : "en_US"} />
      <meta name="twitter:card" content="summary" />
    </>
  );
}

function LinkHeading({ link }: { link: HostedLink }) {
  return (
    <>
      <p class="merchant">{link.merchantName}</p>
      <h1>{link.title}</h1>
      {link.description ? <p class="description">{link.description}</p> : null}
    </>
  );
}

/**
 * The customer's page of a payable link: a plain form that posts back to the facade, so it works
 * without JavaScript; the hidden idempotency key is this page load's, so a double submit charges once.
 */
export function LinkPage({ link, locale, form }: LinkPageProps & { form: LinkForm }) {
  const t = LINK_TEXT[locale];
  const chosen = form.method && link.methods.includes(form.method) ? form.method : link.methods[0];
  const head = (
    <>
      <PreviewTags link={link} locale={locale} />
      <script src={LINK_SCRIPT_PATH} defer />
    </>
  );
  return (
    <Layout locale={locale} merchant={{ name: link.merchantName, brand: link.brand }} title={link.title} head={head}>
      <LinkHeading link={link} />
      <form method="post" action={`/l/${encodeURIComponent(link.id)}`} novalidate data-pay-form="">
        <input type="hidden" name="idempotency_key" value={form.idempotencyKey} />
        {"fixed" in link.amount ? (
          <p class="amount" data-amount={link.amount.fixed} data-currency={link.currency}>
            {formatMoney(link.amount.fixed, link.currency)}
          </p>
        ) : (
          <div class="field">
            <label for="amount">{`${t.amount} (${link.currency})`}</label>
            <input
              id="amount"
              name="amount"
              type="text"
              inputmode="decimal"
              autocomplete="off"
              required
              value={form.amountText || undefined}
              autofocus={form.amountError ? true : undefined}
              aria-invalid={form.amountError ? "true" : undefined}
              aria-describedby={form.amountError ? "amount-hint amount-error" : "amount-hint"}
            />
            <p id="amount-hint" class="hint">
              {t.amountBetween(formatMoney(link.amount.min, link.currency), formatMoney(link.amount.max, link.currency))}
            </p>
            {form.amountError ? (
              <p id="amount-error" class="field-error" role="alert">
                {form.amountError}
              </p>
            ) : null}
          </div>
        )}
        <fieldset class="methods">
          <legend>{t.method}</legend>
          {link.methods.map((method) => (
            <label class="choice">
              <input type="radio" name="method_type" value={method} checked={method === chosen} />
              <span>{TEXT[locale][method]}</span>
            </label>
          ))}
        </fieldset>
        {form.formError ? (
          <p class="form-error" role="alert">
            {form.formError}
          </p>
        ) : null}
        <button type="submit" class="button">
          {"fixed" in link.amount ? t.payAmount(formatMoney(link.amount.fixed, link.currency)) : t.pay}
        </button>
      </form>
      {link.mode === "test" ? <p class="note">{TEXT[locale].test}</p> : null}
    </Layout>
  );
}

/** A link that accepts no payment: why, in words, and no form. */
export function NotPayableLinkPage({ link, locale, reason }: LinkPageProps & { reason: LinkNotPayableReason }) {
  const t = LINK_TEXT[locale];
  return (
    <Layout
      locale={locale}
      merchant={{ name: link.merchantName, brand: link.brand }}
      title={t.notPayableTitle}
      head={<PreviewTags link={link} locale={locale} />}
    >
      <LinkHeading link={link} />
      <h2>{t.notPayableTitle}</h2>
      <p data-reason={reason}>{t.notPayable[reason]}</p>
    </Layout>
  );
}

/**
 * Where the customer lands after paying (or not) when the link has no URLs of its own. `paid` and
 * `not_completed` speak for a payment the core confirmed was made through this link, in its mode;
 * `unknown` claims nothing (no payment id, someone else's, or one not finished either way).
 */
export type LinkOutcome = "paid" | "not_completed" | "unknown";

/** The link's own payment, as the core reported it. */
export interface LinkDonePayment {
  id: string;
  amount: string;
  currency: string;
}

export function LinkDonePage({ link, locale, outcome, payment }: LinkPageProps & { outcome: LinkOutcome; payment?: LinkDonePayment | undefined }) {
  const t = LINK_TEXT[locale];
  const words: Record<LinkOutcome, [title: string, message: string]> = {
    paid: [t.doneTitle, t.done(link.merchantName)],
    not_completed: [t.notCompletedTitle, t.notCompleted],
    unknown: [t.returnedTitle, t.returned(link.merchantName)],
  };
  const [title, message] = words[outcome];
  const shown = outcome === "unknown" ? undefined : payment;
  return (
    <Layout locale={locale} merchant={{ name: link.merchantName, brand: link.brand }} title={title}>
      <h1>{title}</h1>
      <p data-outcome={outcome}>{message}</p>
      <dl>
        <dt>{t.item}</dt>
        <dd>{link.title}</dd>
        {shown ? (
          <>
            <dt>{t.amount}</dt>
            <dd data-amount="">{formatMoney(shown.amount, shown.currency)}</dd>
            <dt>{t.reference}</dt>
            <dd data-payment-id="">{shown.id}</dd>
          </>
        ) : null}
      </dl>
      {outcome === "not_completed" && !link.notPayable ? (
        <a class="button" href={`/l/${encodeURIComponent(link.id)}`}>
          {t.tryAgain}
        </a>
      ) : null}
      {link.mode === "test" ? <p class="note">{TEXT[locale].test}</p> : null}
    </Layout>
  );
}
