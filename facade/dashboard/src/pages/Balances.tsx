import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { DataTable, useKeysetPages } from "../components/DataTable.tsx";
import { KeysetTable } from "../components/KeysetTable.tsx";
import { SelectField, TextField } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { StatusBadge, type Tone } from "../components/StatusBadge.tsx";
import { errorText } from "../errors.ts";
import { useFormat } from "../format/use-format.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { label } from "../i18n/label.ts";
import { balanceMessages } from "../i18n/messages/balances.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { atLeast } from "../roles.ts";
import { useSession } from "../session.tsx";
import { useTRPC, type RouterOutputs } from "../trpc.ts";
import "../styles/pages.css";
import { CURRENCIES } from "./payment-filters.ts";

type Payout = RouterOutputs["dashboard"]["payouts"]["list"]["data"][number];

const PAYOUT_TONES: Record<string, Tone> = { completed: "success", failed: "danger", canceled: "neutral" };

/** Balances per currency, "pay out now" (owners and admins), the payouts with their times and failures, and the bank accounts (masked). */
export default function Balances() {
  const m = useMessages(balanceMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const { me } = useSession();
  const format = useFormat();
  const trpc = useTRPC();
  const balances = useQuery(trpc.dashboard.balances.show.queryOptions(undefined));
  const mayAct = atLeast(me.role, "admin");
  return (
    <Page title={m.title}>
      <h2>{m.balances}</h2>
      {balances.isError && <Notice tone="danger">{errorText(balances.error, shell, lang)}</Notice>}
      {balances.isPending ? (
        <Loading />
      ) : (
        <DataTable
          caption={m.balances}
          rows={balances.data?.balances ?? []}
          rowKey={(b) => b.currency}
          columns={[
            { key: "currency", header: m.balanceColumns.currency, cell: (b) => b.currency },
            { key: "pending", header: m.balanceColumns.pending, align: "end", cell: (b) => format.money(b.pending, b.currency) },
            {
              key: "available",
              header: m.balanceColumns.available,
              align: "end",
              cell: (b) => <span data-testid={`available-${b.currency}`}>{format.money(b.available, b.currency)}</span>,
            },
            { key: "transit", header: m.balanceColumns.inTransit, align: "end", cell: (b) => format.money(b.in_transit, b.currency) },
          ]}
        />
      )}
      {mayAct && balances.data && <PayNow currencies={balances.data.balances.filter((b) => BigInt(b.available) > 0n).map((b) => b.currency)} />}
      <Payouts />
      <BankAccounts mayAdd={mayAct} />
    </Page>
  );
}

function useRefreshMoney() {
  const trpc = useTRPC();
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: trpc.dashboard.balances.show.queryKey(undefined) });
    await client.invalidateQueries({ queryKey: trpc.dashboard.payouts.list.pathKey() });
    await client.invalidateQueries({ queryKey: trpc.dashboard.bankAccounts.list.queryKey(undefined) });
  };
}

function PayNow({ currencies }: { currencies: string[] }) {
  const m = useMessages(balanceMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const format = useFormat();
  const trpc = useTRPC();
  const refresh = useRefreshMoney();
  const payNow = useMutation(trpc.dashboard.payouts.payNow.mutationOptions({ onSettled: refresh }));
  if (currencies.length === 0 && !payNow.data && !payNow.isError) return null;
  return (
    <div className="panel">
      {payNow.isError && <Notice tone="danger">{errorText(payNow.error, shell, lang)}</Notice>}
      {payNow.data && (
        <Notice tone="success">{m.payNowDone(format.money(payNow.data.amount, payNow.data.currency), label(m.payoutStatuses, payNow.data.status))}</Notice>
      )}
      <div className="form-actions">
        {currencies.map((currency) => (
          <button key={currency} type="button" className="button button-primary" disabled={payNow.isPending} onClick={() => payNow.mutate({ currency })}>
            {m.payNow(currency)}
          </button>
        ))}
      </div>
    </div>
  );
}

function PayoutTimes({ payout }: { payout: Payout }) {
  const m = useMessages(balanceMessages);
  const format = useFormat();
  const stamps: [string, string | null][] = [
    [m.stamps.requested, payout.requested_at],
    [m.stamps.processing, payout.processing_at],
    [m.stamps.sent, payout.sent_to_bank_at],
    [m.stamps.completed, payout.completed_at],
    [m.stamps.failed, payout.failed_at],
    [m.stamps.canceled, payout.canceled_at],
  ];
  return (
    <ul className="plain">
      {stamps
        .filter((s): s is [string, string] => s[1] !== null)
        .map(([label, at]) => (
          <li key={label}>
            {label}: <time dateTime={at}>{format.dateTime(at)}</time>
          </li>
        ))}
    </ul>
  );
}

function Payouts() {
  const m = useMessages(balanceMessages);
  const format = useFormat();
  const trpc = useTRPC();
  const pages = useKeysetPages();
  const list = useQuery(trpc.dashboard.payouts.list.queryOptions({ starting_after: pages.cursor }));
  return (
    <section aria-labelledby="payouts-heading">
      <h2 id="payouts-heading">{m.payouts}</h2>
      <KeysetTable
        list={list}
        pages={pages}
        caption={m.payouts}
        columns={[
          { key: "id", header: m.payoutColumns.id, cell: (p) => <span className="mono">{p.id}</span> },
          { key: "amount", header: m.payoutColumns.amount, align: "end", cell: (p) => format.money(p.amount, p.currency) },
          {
            key: "status",
            header: m.payoutColumns.status,
            cell: (p) => <StatusBadge tone={PAYOUT_TONES[p.status] ?? "info"}>{label(m.payoutStatuses, p.status)}</StatusBadge>,
          },
          { key: "account", header: m.payoutColumns.account, cell: (p) => <span className="mono">{p.bank_account_masked}</span> },
          { key: "times", header: m.payoutColumns.times, cell: (p) => <PayoutTimes payout={p} /> },
          { key: "failure", header: m.payoutColumns.failure, cell: (p) => (p.failure_reason === null ? "" : label(m.failureReasons, p.failure_reason)) },
        ]}
      />
    </section>
  );
}

function BankAccounts({ mayAdd }: { mayAdd: boolean }) {
  const m = useMessages(balanceMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const format = useFormat();
  const trpc = useTRPC();
  const accounts = useQuery(trpc.dashboard.bankAccounts.list.queryOptions(undefined));
  return (
    <section aria-labelledby="accounts-heading">
      <h2 id="accounts-heading">{m.accounts}</h2>
      {accounts.isError && <Notice tone="danger">{errorText(accounts.error, shell, lang)}</Notice>}
      {accounts.isPending ? (
        <Loading />
      ) : (
        <DataTable
          caption={m.accounts}
          rows={accounts.data?.data ?? []}
          rowKey={(a) => a.id}
          columns={[
            { key: "currency", header: m.accountColumns.currency, cell: (a) => a.currency },
            { key: "bank", header: m.accountColumns.bank, cell: (a) => a.bank_name },
            { key: "holder", header: m.accountColumns.holder, cell: (a) => a.holder_name },
            { key: "number", header: m.accountColumns.number, cell: (a) => <span className="mono">{a.masked}</span> },
            {
              key: "state",
              header: m.accountColumns.state,
              cell: (a) => <StatusBadge tone={a.active ? "success" : "neutral"}>{a.active ? m.active : m.replaced}</StatusBadge>,
            },
            { key: "created", header: m.accountColumns.created, cell: (a) => format.dateTime(a.created_at) },
          ]}
        />
      )}
      {mayAdd && <AddAccount />}
    </section>
  );
}

function AddAccount() {
  const m = useMessages(balanceMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const refresh = useRefreshMoney();
  const [currency, setCurrency] = useState<string>("GTQ");
  const [number, setNumber] = useState("");
  const [bank, setBank] = useState("");
  const [holder, setHolder] = useState("");
  const add = useMutation(
    trpc.dashboard.bankAccounts.add.mutationOptions({
      onSuccess: async () => {
        // The full number leaves the page as soon as the core has it.
        setNumber("");
        await refresh();
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({
      currency,
      account_number: number.replace(/[\s-]/g, ""),
      ...(bank.trim() ? { bank_name: bank.trim() } : {}),
      ...(holder.trim() ? { holder_name: holder.trim() } : {}),
    });
  };
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="add-account-heading" noValidate>
      <h3 id="add-account-heading">{m.add.title}</h3>
      <p className="muted">{m.add.hint}</p>
      {add.isError && <Notice tone="danger">{errorText(add.error, shell, lang)}</Notice>}
      {add.isSuccess && <Notice tone="success">{m.add.done(add.data.masked)}</Notice>}
      <SelectField
        label={m.add.currency}
        value={currency}
        onChange={(e) => setCurrency(e.target.value)}
        options={CURRENCIES.map((c) => ({ value: c, label: c }))}
      />
      <TextField
        label={m.add.number}
        hint={m.add.numberHint}
        inputMode="numeric"
        autoComplete="off"
        value={number}
        onChange={(e) => setNumber(e.target.value)}
      />
      <TextField label={m.add.bank} value={bank} onChange={(e) => setBank(e.target.value)} maxLength={200} />
      <TextField label={m.add.holder} value={holder} onChange={(e) => setHolder(e.target.value)} maxLength={200} />
      <button type="submit" className="button button-primary" disabled={add.isPending}>
        {m.add.submit}
      </button>
    </form>
  );
}
