import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useParams } from "wouter";
import { CopyButton } from "../components/CopyButton.tsx";
import { Fact, Facts } from "../components/Facts.tsx";
import { DataTable } from "../components/DataTable.tsx";
import { SelectField, TextField } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { PaymentStatus } from "../components/PaymentStatus.tsx";
import { errorText } from "../errors.ts";
import { minorFromDecimal } from "../format/amount-input.ts";
import { useAttemptKey } from "../format/attempt-key.ts";
import { useFormat } from "../format/use-format.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { label } from "../i18n/label.ts";
import { paymentMessages } from "../i18n/messages/payments.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { atLeast } from "../roles.ts";
import { useSession } from "../session.tsx";
import { useTRPC, type RouterOutputs } from "../trpc.ts";
import "../styles/pages.css";

type Detail = RouterOutputs["dashboard"]["payments"]["get"];

const PAYABLE = ["created", "processing", "authorized"];
const REFUNDABLE = ["captured", "pending_settlement", "settled_to_paytami", "available_to_merchant", "partially_refunded"];
const REASONS = ["requested_by_customer", "duplicate_charge", "product_not_received", "product_unacceptable", "merchant_error", "fraudulent", "other"];

/** One payment in full: amounts, timeline, customer, refunds, events and deliveries, ledger; refund and cancel for roles that may. */
export default function PaymentDetail() {
  const { id } = useParams<{ id: string }>();
  const m = useMessages(paymentMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const detail = useQuery(trpc.dashboard.payments.get.queryOptions({ id }));
  return (
    <Page title={m.detail.title(id)} actions={<Link href="/payments">{m.detail.back}</Link>}>
      {detail.isPending ? (
        <Loading />
      ) : detail.isError ? (
        <Notice tone="danger">{errorText(detail.error, shell, lang)}</Notice>
      ) : (
        <DetailBody detail={detail.data} />
      )}
    </Page>
  );
}

function DetailBody({ detail }: { detail: Detail }) {
  const m = useMessages(paymentMessages);
  const format = useFormat();
  const { me } = useSession();
  const p = detail.payment;
  const mayAct = atLeast(me.role, "admin");
  const none = m.detail.none;
  return (
    <>
      <section className="panel" aria-labelledby="summary-heading">
        <h2 id="summary-heading">{m.detail.summary}</h2>
        <Facts>
          <Fact term={m.detail.amount}>
            <span data-testid="detail-amount">{detail.amount.formatted}</span>
          </Fact>
          <Fact term={m.detail.fee}>
            <span data-testid="detail-fee">{detail.fee.formatted}</span>
          </Fact>
          <Fact term={m.detail.net}>
            <span data-testid="detail-net">{detail.net.formatted}</span>
          </Fact>
          <Fact term={m.detail.refunded}>
            <span data-testid="detail-refunded">{detail.refunded.formatted}</span>
          </Fact>
          <Fact term={m.detail.status}>
            <PaymentStatus status={p.status} />
          </Fact>
          <Fact term={m.detail.method}>
            {label(m.methods, detail.method_type)}
            {detail.card && ` · ${m.detail.card(detail.card.brand, detail.card.last4)}`}
          </Fact>
          <Fact term={m.detail.created}>{format.dateTime(p.created_at)}</Fact>
          {PAYABLE.includes(p.status) && <Fact term={m.detail.expires}>{format.dateTime(detail.expires_at)}</Fact>}
          <Fact term={m.detail.description}>{p.description ?? none}</Fact>
          <Fact term={m.detail.link}>{detail.link_id ? <Link href={`/links/${detail.link_id}`}>{detail.link_id}</Link> : none}</Fact>
          <Fact term={m.detail.customerName}>
            <span data-testid="detail-customer-name">{detail.customer.name ?? none}</span>
          </Fact>
          <Fact term={m.detail.customerEmail}>{detail.customer.email ?? none}</Fact>
          <Fact term={m.detail.checkoutUrl}>
            <code className="secret">{p.checkout_url}</code>
            <CopyButton text={p.checkout_url} label={m.copyCheckout} />
          </Fact>
        </Facts>
      </section>
      {mayAct && REFUNDABLE.includes(p.status) && <RefundForm detail={detail} />}
      {mayAct && PAYABLE.includes(p.status) && <CancelPayment id={p.id} />}
      <section aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">{m.detail.timeline}</h2>
        <ol className="timeline">
          {detail.timeline.map((entry) => (
            <li key={`${entry.state}-${entry.at}`}>
              <span className="timeline-state">{label(m.detail.timelineStates, entry.state)}</span> <time dateTime={entry.at}>{format.dateTime(entry.at)}</time>
            </li>
          ))}
        </ol>
      </section>
      <h2>{m.detail.refunds}</h2>
      <DataTable
        caption={m.detail.refunds}
        rows={detail.refunds}
        rowKey={(r) => r.id}
        empty={m.detail.noRefunds}
        columns={[
          { key: "id", header: m.detail.refundColumns.id, cell: (r) => <span className="mono">{r.id}</span> },
          { key: "amount", header: m.detail.refundColumns.amount, align: "end", cell: (r) => format.money(r.amount, r.currency) },
          { key: "reason", header: m.detail.refundColumns.reason, cell: (r) => label(m.reasons, r.reason) },
          { key: "created", header: m.detail.refundColumns.created, cell: (r) => format.dateTime(r.created_at) },
        ]}
      />
      <h2>{m.detail.events}</h2>
      <DataTable
        caption={m.detail.events}
        rows={detail.events}
        rowKey={(e) => e.id}
        empty={m.detail.noEvents}
        columns={[
          {
            key: "type",
            header: m.detail.eventColumns.type,
            cell: (e) => (
              <>
                <span className="block mono">{e.type}</span>
                <span className="block muted mono">{e.id}</span>
              </>
            ),
          },
          { key: "created", header: m.detail.eventColumns.created, cell: (e) => format.dateTime(e.created_at) },
          {
            key: "deliveries",
            header: m.detail.eventColumns.deliveries,
            cell: (e) =>
              e.deliveries.length === 0 ? (
                m.detail.noDeliveries
              ) : (
                <ul className="plain">
                  {e.deliveries.map((d) => (
                    <li key={d.id}>
                      <span className="mono">{d.endpoint_id}</span>:{" "}
                      {m.detail.delivery(d.status, d.attempt_count, d.last_http_status === null ? "" : String(d.last_http_status))}
                      {d.last_error && <span className="block muted">{d.last_error}</span>}
                    </li>
                  ))}
                </ul>
              ),
          },
        ]}
      />
      <h2>{m.detail.ledger}</h2>
      <DataTable
        caption={m.detail.ledger}
        rows={detail.ledger.flatMap((t) =>
          t.lines.map((line, i) => ({ ...line, key: `${t.id}-${i}`, kind: t.kind, created_at: t.created_at, first: i === 0 })),
        )}
        rowKey={(l) => l.key}
        empty={m.detail.noLedger}
        columns={[
          { key: "kind", header: m.detail.ledgerColumns.kind, cell: (l) => (l.first ? <span className="mono">{l.kind}</span> : "") },
          { key: "created", header: m.detail.ledgerColumns.created, cell: (l) => (l.first ? format.dateTime(l.created_at) : "") },
          { key: "account", header: m.detail.ledgerColumns.account, cell: (l) => <span className="mono">{l.account}</span> },
          { key: "amount", header: m.detail.ledgerColumns.amount, align: "end", cell: (l) => format.money(l.amount, p.currency) },
        ]}
      />
    </>
  );
}

function useRefreshPayment(id: string) {
  const trpc = useTRPC();
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: trpc.dashboard.payments.get.queryKey({ id }) });
    await client.invalidateQueries({ queryKey: trpc.dashboard.payments.list.pathKey() });
  };
}

function RefundForm({ detail }: { detail: Detail }) {
  const m = useMessages(paymentMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const format = useFormat();
  const trpc = useTRPC();
  const refresh = useRefreshPayment(detail.payment.id);
  const currency = detail.payment.currency;
  const remaining = format.money(BigInt(detail.amount.minor) - BigInt(detail.refunded.minor), currency);
  const [kind, setKind] = useState<"full" | "partial">("full");
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("requested_by_customer");
  const [amountError, setAmountError] = useState<string>();
  const attempt = useAttemptKey();
  const refund = useMutation(
    trpc.dashboard.payments.refund.mutationOptions({
      onSuccess: async () => {
        attempt.next();
        await refresh();
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAmountError(undefined);
    let minor: string | undefined;
    if (kind === "partial") {
      minor = minorFromDecimal(amount);
      if (minor === undefined) return setAmountError(m.refund.amountInvalid);
    }
    refund.mutate({ payment_id: detail.payment.id, reason, idempotency_key: attempt.key, ...(minor !== undefined ? { amount: minor } : {}) });
  };
  return (
    <section className="panel" aria-labelledby="refund-heading">
      <h2 id="refund-heading">{m.refund.title}</h2>
      <form onSubmit={submit} noValidate>
        <fieldset className="choices">
          <legend>{m.refund.kind}</legend>
          <label>
            <input type="radio" name="refund-kind" value="full" checked={kind === "full"} onChange={() => (attempt.next(), setKind("full"))} />{" "}
            {m.refund.full(remaining)}
          </label>
          <label>
            <input type="radio" name="refund-kind" value="partial" checked={kind === "partial"} onChange={() => (attempt.next(), setKind("partial"))} />{" "}
            {m.refund.partial}
          </label>
        </fieldset>
        {kind === "partial" && (
          <TextField
            label={m.refund.amount}
            hint={m.refund.amountHint(remaining)}
            inputMode="decimal"
            value={amount}
            onChange={(e) => (attempt.next(), setAmount(e.target.value))}
            error={amountError}
          />
        )}
        <SelectField
          label={m.refund.reason}
          value={reason}
          onChange={(e) => (attempt.next(), setReason(e.target.value))}
          options={REASONS.map((r) => ({ value: r, label: label(m.reasons, r) }))}
        />
        {refund.isError && <Notice tone="danger">{errorText(refund.error, shell, lang)}</Notice>}
        {refund.isSuccess && <Notice tone="success">{m.refund.done(format.money(refund.data.amount, refund.data.currency))}</Notice>}
        <button type="submit" className="button button-primary" disabled={refund.isPending}>
          {m.refund.submit}
        </button>
      </form>
    </section>
  );
}

function CancelPayment({ id }: { id: string }) {
  const m = useMessages(paymentMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const refresh = useRefreshPayment(id);
  const [asking, setAsking] = useState(false);
  const attempt = useAttemptKey();
  const cancel = useMutation(trpc.dashboard.payments.cancel.mutationOptions({ onSuccess: refresh }));
  return (
    <section className="panel">
      {cancel.isError && <Notice tone="danger">{errorText(cancel.error, shell, lang)}</Notice>}
      {asking ? (
        <div role="group" aria-label={m.cancel.button}>
          <p>{m.cancel.confirm}</p>
          <div className="form-actions">
            <button
              type="button"
              className="button button-danger"
              disabled={cancel.isPending}
              onClick={() => cancel.mutate({ id, idempotency_key: attempt.key })}
            >
              {m.cancel.yes}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setAsking(false)}>
              {m.cancel.no}
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="button button-danger" onClick={() => setAsking(true)}>
          {m.cancel.button}
        </button>
      )}
    </section>
  );
}
