import type { ComponentChildren } from "preact";
import type { CardField, CardFieldError } from "./card-form.ts";
import { formatMoney } from "../../../proto/format-money.ts";
import { checkoutStep, shopReturnUrl, type HostedPayment, type ResolvedReason } from "./hosted-payment.ts";
import { Layout } from "./layout.tsx";
import { TEXT, type Locale } from "./locale.ts";

/** Where the page lives: the payment page, or the embed inside a merchant's iframe. */
export interface PageFrame {
  /** The page's own path (/pay/{id} or /embed/{id}); its forms post to it and to paths below it. */
  path: string;
  /** "?token=…" on the embed, "" on the payment page: every action carries it. */
  query: string;
  embedded: boolean;
  /** Where the embed posts its outcome: the registered origins in live mode, "*" in test mode. */
  messageTargets: string[];
}

/** What the card form shows again after a refused post: the customer's entries (never the CVC) and what is wrong. */
export interface CardFormState {
  values?: Partial<Record<Exclude<CardField, "card_cvc">, string>>;
  errors?: Partial<Record<CardField, CardFieldError>>;
  /** A message about the attempt as a whole (the processor was unavailable; the core refused the details; too many card attempts). */
  notice?: "tryAgain" | "rejectedByCore" | "rateLimited";
  /** With the rateLimited notice: how long to wait (the Retry-After sent with it). */
  retryAfterSeconds?: number;
}

interface PageProps {
  payment: HostedPayment;
  locale: Locale;
  frame: PageFrame;
}

const PAGE_FRAME: PageFrame = { path: "", query: "", embedded: false, messageTargets: [] };

/** The page for the payment's current step: a form while it is payable, the resolved page once it is not. */
export function CheckoutPage({ payment, locale, frame, form }: PageProps & { form?: CardFormState | undefined }) {
  switch (checkoutStep(payment)) {
    case "resolved":
      return <ResolvedPaymentPage payment={payment} locale={locale} reason={payment.resolved!} frame={frame} />;
    case "challenge":
      return <ChallengePage payment={payment} locale={locale} frame={frame} />;
    case "bank_transfer_waiting":
      return <BankTransferWaitingPage payment={payment} locale={locale} frame={frame} />;
    case "bank_transfer_start":
      return <BankTransferStartPage payment={payment} locale={locale} frame={frame} />;
    case "processing":
      return <ProcessingPage payment={payment} locale={locale} frame={frame} />;
    case "card_form":
      return <CardFormPage payment={payment} locale={locale} frame={frame} form={form} />;
  }
}

/** Who is paid, how much, for what: the top of every payable step. */
function Summary({ payment, locale }: { payment: HostedPayment; locale: Locale }) {
  const t = TEXT[locale];
  return (
    <>
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
    </>
  );
}

/** The customer's cancel: a post, so the payment is canceled before the shop hears about it. */
function CancelForm({ frame, locale }: { frame: PageFrame; locale: Locale }) {
  return (
    <form method="post" action={`${frame.path}/cancel${frame.query}`}>
      <button type="submit" class="button secondary">
        {TEXT[locale].cancel}
      </button>
    </form>
  );
}

interface FieldProps {
  name: CardField;
  label: string;
  hint?: string;
  error?: string | undefined;
  value?: string | undefined;
  autocomplete: string;
  inputmode?: "numeric" | "text";
  after?: ComponentChildren;
}

/** A labelled input whose hint and error are announced with it, and marked invalid when it is. */
function Field({ name, label, hint, error, value, autocomplete, inputmode, after }: FieldProps) {
  const describedBy = [hint ? `${name}-hint` : "", `${name}-error`].filter(Boolean).join(" ");
  return (
    <div class="field">
      <label for={name}>{label}</label>
      {hint ? (
        <p class="hint" id={`${name}-hint`}>
          {hint}
        </p>
      ) : null}
      <input
        id={name}
        name={name}
        type="text"
        value={value ?? ""}
        autocomplete={autocomplete}
        inputmode={inputmode}
        spellcheck={false}
        required
        aria-describedby={describedBy}
        aria-invalid={error ? "true" : undefined}
      />
      {after}
      <p class="field-error" id={`${name}-error`} hidden={!error}>
        {error ?? ""}
      </p>
    </div>
  );
}

export function CardFormPage({ payment, locale, frame, form = {} }: PageProps & { form?: CardFormState | undefined }) {
  const t = TEXT[locale];
  const errors = form.errors ?? {};
  const wrong = (Object.keys(errors) as CardField[]).filter((field) => errors[field]);
  return (
    <Layout locale={locale} merchant={{ name: payment.merchantName, brand: payment.brand }} title={t.title} script>
      <Summary payment={payment} locale={locale} />
      {form.notice ? (
        <p class="notice" role="alert">
          {form.notice === "rateLimited" ? t.cardRateLimited(form.retryAfterSeconds ?? 60) : t[form.notice]}
        </p>
      ) : null}
      {wrong.length > 0 ? (
        <div class="error-summary" role="alert">
          <p>{t.errorSummary}</p>
          <ul>
            {wrong.map((field) => (
              <li>
                <a href={`#${field}`}>{t.errors[errors[field]!]}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <form
        method="post"
        action={`${frame.path}${frame.query}`}
        novalidate
        data-card-form=""
        data-messages={JSON.stringify(t.errors)}
        data-brands={JSON.stringify(t.brands)}
      >
        <Field
          name="card_number"
          label={t.cardNumber}
          hint={t.cardNumberHint}
          error={errors.card_number && t.errors[errors.card_number]}
          value={form.values?.card_number}
          autocomplete="cc-number"
          inputmode="numeric"
          after={<p class="brand" id="card_number-brand" aria-live="polite"></p>}
        />
        <div class="row">
          <Field
            name="card_expiry"
            label={t.cardExpiry}
            error={errors.card_expiry && t.errors[errors.card_expiry]}
            value={form.values?.card_expiry}
            autocomplete="cc-exp"
            inputmode="numeric"
          />
          <Field
            name="card_cvc"
            label={t.cardCvc}
            hint={t.cardCvcHint}
            error={errors.card_cvc && t.errors[errors.card_cvc]}
            autocomplete="cc-csc"
            inputmode="numeric"
          />
        </div>
        <Field
          name="card_name"
          label={t.cardName}
          error={errors.card_name && t.errors[errors.card_name]}
          value={form.values?.card_name}
          autocomplete="cc-name"
        />
        <button type="submit" class="button" data-busy-text={t.paying}>
          {t.payNow} {formatMoney(payment.amount, payment.currency)}
        </button>
      </form>
      <CancelForm frame={frame} locale={locale} />
    </Layout>
  );
}

function ChallengePage({ payment, locale, frame }: PageProps) {
  const t = TEXT[locale];
  const action = `${frame.path}/challenge${frame.query}`;
  return (
    <Layout locale={locale} merchant={{ name: payment.merchantName, brand: payment.brand }} title={t.challengeTitle} script>
      <h1>{t.challengeTitle}</h1>
      <p class="amount">{formatMoney(payment.amount, payment.currency)}</p>
      {payment.card ? <p data-card="">{cardLabel(payment.card, locale)}</p> : null}
      <p>{t.challengeText}</p>
      <form method="post" action={action}>
        <input type="hidden" name="confirmed" value="true" />
        <button type="submit" class="button" data-busy-text={t.paying}>
          {t.challengeComplete}
        </button>
      </form>
      <form method="post" action={action}>
        <input type="hidden" name="confirmed" value="false" />
        <button type="submit" class="button secondary">
          {t.challengeFail}
        </button>
      </form>
    </Layout>
  );
}

function BankTransferStartPage({ payment, locale, frame }: PageProps) {
  const t = TEXT[locale];
  return (
    <Layout locale={locale} merchant={{ name: payment.merchantName, brand: payment.brand }} title={t.title} script>
      <Summary payment={payment} locale={locale} />
      <p>{t.bankStartText}</p>
      <form method="post" action={`${frame.path}/bank-transfer${frame.query}`}>
        <button type="submit" class="button" data-busy-text={t.paying}>
          {t.bankStart}
        </button>
      </form>
      <CancelForm frame={frame} locale={locale} />
    </Layout>
  );
}

/** A value the customer types into their bank's form: shown as text, with a copy button once the script runs. */
function Copyable({ id, value, locale }: { id: string; value: string; locale: Locale }) {
  const t = TEXT[locale];
  return (
    <dd>
      <span id={id} class="copyable">
        {value}
      </span>{" "}
      <button type="button" class="copy" data-copy={id} data-copied-text={t.copied} hidden>
        {t.copy}
      </button>
      <span id={`${id}-copied`} class="copied" role="status"></span>
    </dd>
  );
}

function BankTransferWaitingPage({ payment, locale, frame }: PageProps) {
  const t = TEXT[locale];
  const bank = payment.bankTransfer!;
  return (
    <Layout locale={locale} merchant={{ name: payment.merchantName, brand: payment.brand }} title={t.bankTitle} script>
      <Summary payment={payment} locale={locale} />
      <h2>{t.bankTitle}</h2>
      <dl class="bank" data-bank-transfer="">
        <dt>{t.bankName}</dt>
        <dd>{bank.bankName}</dd>
        <dt>{t.accountName}</dt>
        <dd>{bank.accountName}</dd>
        <dt>{t.accountNumber}</dt>
        <Copyable id="bank-account" value={bank.accountNumber} locale={locale} />
        <dt>{t.bankReference}</dt>
        <Copyable id="bank-reference" value={bank.reference} locale={locale} />
      </dl>
      <Waiting frame={frame} text={t.waiting} locale={locale} />
      <CancelForm frame={frame} locale={locale} />
    </Layout>
  );
}

function ProcessingPage({ payment, locale, frame }: PageProps) {
  const t = TEXT[locale];
  return (
    <Layout locale={locale} merchant={{ name: payment.merchantName, brand: payment.brand }} title={t.processingTitle} script>
      <Summary payment={payment} locale={locale} />
      <Waiting frame={frame} text={t.processing} locale={locale} />
    </Layout>
  );
}

/** The self-updating state: the script polls the status and moves on; without it, a link checks again. */
function Waiting({ frame, text, locale }: { frame: PageFrame; text: string; locale: Locale }) {
  return (
    <>
      <p class="waiting" role="status" data-status-url={`${frame.path}/status${frame.query}`}>
        <span class="spinner" aria-hidden="true"></span>
        {text}
      </p>
      <p>
        <a href={`${frame.path}${frame.query}`}>{TEXT[locale].checkAgain}</a>
      </p>
    </>
  );
}

function cardLabel(card: { brand: string; last4: string }, locale: Locale): string {
  const brands: Record<string, string> = TEXT[locale].brands;
  return `${brands[card.brand] ?? brands.unknown} •••• ${card.last4}`;
}

const OUTCOME: Record<ResolvedReason, string> = { already_paid: "succeeded", failed: "failed", canceled: "canceled", expired: "expired" };

/** What the embed tells the page that frames it. */
export function outcomeMessage(payment: HostedPayment, reason: ResolvedReason) {
  return {
    type: "paytami.checkout",
    payment_id: payment.id,
    status: payment.status,
    outcome: OUTCOME[reason],
    redirect_url: shopReturnUrl(payment, reason),
  };
}

/** A payment that accepts no further attempt: why, and the way back to the shop (the embed tells its parent instead). */
export function ResolvedPaymentPage({ payment, locale, reason, frame = PAGE_FRAME }: Omit<PageProps, "frame"> & { frame?: PageFrame; reason: ResolvedReason }) {
  const t = TEXT[locale];
  return (
    <Layout locale={locale} merchant={{ name: payment.merchantName, brand: payment.brand }} title={t.resolvedTitle} script={frame.embedded}>
      <h1>{t.resolvedTitle}</h1>
      <p data-reason={reason}>{t.reasons[reason]}</p>
      <dl>
        <dt>{t.amount}</dt>
        <dd>{formatMoney(payment.amount, payment.currency)}</dd>
        <dt>{t.reference}</dt>
        <dd data-payment-id="">{payment.id}</dd>
      </dl>
      {frame.embedded ? (
        <p hidden data-outcome={JSON.stringify(outcomeMessage(payment, reason))} data-targets={JSON.stringify(frame.messageTargets)}></p>
      ) : (
        <a class="button" href={shopReturnUrl(payment, reason)}>
          {t.backToStore}
        </a>
      )}
    </Layout>
  );
}
