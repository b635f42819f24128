import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useLocation } from "wouter";
import { SelectField, TextField } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { Page } from "../components/Page.tsx";
import { catalogCode, errorText } from "../errors.ts";
import { minorFromDecimal } from "../format/amount-input.ts";
import { useAttemptKey } from "../format/attempt-key.ts";
import { zonedInstant } from "../format/zoned-time.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { linkMessages } from "../i18n/messages/links.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { useSession } from "../session.tsx";
import { useTRPC } from "../trpc.ts";
import "../styles/pages.css";
import { CURRENCIES } from "./payment-filters.ts";
import { fieldOfError, type LinkField } from "./link-view.ts";

type Draft = Record<
  "title" | "description" | "currency" | "fixed" | "min" | "max" | "expiresDate" | "expiresTime" | "maxPayments" | "successUrl" | "cancelUrl",
  string
>;
type Errors = Partial<Record<LinkField, string>>;

const EMPTY: Draft = {
  title: "",
  description: "",
  currency: "GTQ",
  fixed: "",
  min: "",
  max: "",
  expiresDate: "",
  expiresTime: "23:59",
  maxPayments: "",
  successUrl: "",
  cancelUrl: "",
};

/**
 * A new payment link. The amounts typed in major units become minor units here (exactly); the rest
 * goes as typed, and the API's validation decides: its message shows under the field it names.
 */
export default function LinkCreate() {
  const m = useMessages(linkMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const { timeZone } = useSession();
  const trpc = useTRPC();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [amountType, setAmountType] = useState<"fixed" | "variable">("fixed");
  const [errors, setErrors] = useState<Errors>({});
  // A changed form is another request: it gets a new key (the same key with another body is refused).
  const attempt = useAttemptKey();
  const create = useMutation(
    trpc.dashboard.links.create.mutationOptions({
      onSuccess: async (link) => {
        await client.invalidateQueries({ queryKey: trpc.dashboard.links.list.pathKey() });
        navigate(`/links/${link.id}`);
      },
      onError: (error) => {
        const field = fieldOfError(catalogCode(error), error.message);
        if (field) setErrors({ [field]: error.message });
      },
    }),
  );
  const set = (name: keyof Draft) => (event: { target: { value: string } }) => {
    attempt.next();
    setDraft((d) => ({ ...d, [name]: event.target.value }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const local: Errors = {};
    const amount = (field: LinkField, text: string) => {
      const minor = minorFromDecimal(text);
      if (minor === undefined) local[field] = m.form.amountInvalid;
      return minor;
    };
    const input: Record<string, unknown> = { idempotency_key: attempt.key, title: draft.title, currency: draft.currency };
    if (draft.description !== "") input.description = draft.description;
    if (amountType === "fixed") input.fixed_amount_minor = amount("fixed_amount_minor", draft.fixed);
    else {
      input.min_amount_minor = amount("min_amount_minor", draft.min);
      input.max_amount_minor = amount("max_amount_minor", draft.max);
    }
    if (draft.expiresDate !== "") input.expires_at = zonedInstant(draft.expiresDate, draft.expiresTime || "23:59", timeZone) ?? draft.expiresDate;
    if (draft.maxPayments.trim() !== "") {
      if (/^\d+$/.test(draft.maxPayments.trim())) input.max_payments = Number(draft.maxPayments.trim());
      else local.max_payments = m.form.maxPaymentsInvalid;
    }
    if (draft.successUrl.trim() !== "") input.success_url = draft.successUrl.trim();
    if (draft.cancelUrl.trim() !== "") input.cancel_url = draft.cancelUrl.trim();
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    create.mutate(input);
  };

  const fieldError = create.isError && !fieldOfError(catalogCode(create.error), create.error.message) ? errorText(create.error, shell, lang) : undefined;
  return (
    <Page title={m.form.title} actions={<Link href="/links">{m.form.back}</Link>}>
      <form className="panel" onSubmit={submit} noValidate aria-describedby={fieldError ? "link-form-error" : undefined}>
        {Object.keys(errors).length > 0 && <Notice tone="danger">{m.form.failed}</Notice>}
        {fieldError && (
          <div id="link-form-error">
            <Notice tone="danger">{fieldError}</Notice>
          </div>
        )}
        <TextField label={m.form.linkTitle} name="title" required maxLength={200} value={draft.title} onChange={set("title")} error={errors.title} />
        <TextField
          label={m.form.description}
          name="description"
          maxLength={500}
          value={draft.description}
          onChange={set("description")}
          error={errors.description}
        />
        <SelectField
          label={m.form.currency}
          name="currency"
          value={draft.currency}
          onChange={set("currency")}
          options={CURRENCIES.map((c) => ({ value: c, label: c }))}
          error={errors.currency}
        />
        <fieldset className="choices">
          <legend>{m.form.amountType}</legend>
          <label>
            <input type="radio" name="amount-type" value="fixed" checked={amountType === "fixed"} onChange={() => (attempt.next(), setAmountType("fixed"))} />{" "}
            {m.form.fixed}
          </label>
          <label>
            <input
              type="radio"
              name="amount-type"
              value="variable"
              checked={amountType === "variable"}
              onChange={() => (attempt.next(), setAmountType("variable"))}
            />{" "}
            {m.form.variable}
          </label>
        </fieldset>
        {amountType === "fixed" ? (
          <TextField
            label={m.form.fixedAmount}
            name="fixed_amount"
            inputMode="decimal"
            hint={m.form.amountHint}
            value={draft.fixed}
            onChange={set("fixed")}
            error={errors.fixed_amount_minor}
          />
        ) : (
          <div className="field-row">
            <TextField label={m.form.minAmount} name="min_amount" inputMode="decimal" value={draft.min} onChange={set("min")} error={errors.min_amount_minor} />
            <TextField label={m.form.maxAmount} name="max_amount" inputMode="decimal" value={draft.max} onChange={set("max")} error={errors.max_amount_minor} />
          </div>
        )}
        <div className="field-row">
          <TextField
            label={m.form.expiresDate}
            name="expires_date"
            type="date"
            hint={m.form.expiresHint(timeZone)}
            value={draft.expiresDate}
            onChange={set("expiresDate")}
            error={errors.expires_at}
          />
          <TextField label={m.form.expiresTime} name="expires_time" type="time" value={draft.expiresTime} onChange={set("expiresTime")} />
        </div>
        <TextField
          label={m.form.maxPayments}
          name="max_payments"
          inputMode="numeric"
          value={draft.maxPayments}
          onChange={set("maxPayments")}
          error={errors.max_payments}
        />
        <TextField
          label={m.form.successUrl}
          name="success_url"
          type="url"
          hint={m.form.urlHint}
          value={draft.successUrl}
          onChange={set("successUrl")}
          error={errors.success_url}
        />
        <TextField label={m.form.cancelUrl} name="cancel_url" type="url" value={draft.cancelUrl} onChange={set("cancelUrl")} error={errors.cancel_url} />
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {m.form.submit}
        </button>
      </form>
    </Page>
  );
}
