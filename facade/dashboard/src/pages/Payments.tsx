import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useSearchParams } from "wouter";
import { DataTable, useKeysetPages } from "../components/DataTable.tsx";
import { SelectField, TextField } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { usePaymentColumns } from "../components/payment-columns.tsx";
import { errorText } from "../errors.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { label } from "../i18n/label.ts";
import { paymentMessages } from "../i18n/messages/payments.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { useSession } from "../session.tsx";
import { useTRPC } from "../trpc.ts";
import "../styles/pages.css";
import { CURRENCIES, exportHref, FILTER_PARAMS, filterInput, filtersFrom, METHODS, PAYMENT_STATUSES, type FilterParams } from "./payment-filters.ts";

/** The merchant's payments: filters in the address, keyset pages, and the CSV export of the same filters. */
export default function Payments() {
  const m = useMessages(paymentMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const { timeZone } = useSession();
  const trpc = useTRPC();
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const input = filterInput(filters, timeZone);
  const pages = useKeysetPages();
  const list = useQuery({ ...trpc.dashboard.payments.list.queryOptions({ ...input, starting_after: pages.cursor }), placeholderData: keepPreviousData });
  const columns = usePaymentColumns();
  const apply = (next: FilterParams) => {
    pages.reset();
    setParams(Object.fromEntries(Object.entries(next).filter(([, value]) => value)));
  };
  const rows = list.data?.data ?? [];
  return (
    <Page
      title={m.title}
      actions={
        <a className="button button-secondary" href={exportHref(input)} download data-testid="export-csv">
          {m.exportCsv}
        </a>
      }
    >
      <p className="muted">{m.exportHint}</p>
      <FilterForm address={params.toString()} initial={filters} onApply={apply} />
      {list.isError && <Notice tone="danger">{errorText(list.error, shell, lang)}</Notice>}
      {list.isPending ? (
        <Loading />
      ) : (
        <DataTable
          caption={m.table.caption}
          columns={columns}
          rows={rows}
          rowKey={(p) => p.id}
          paging={pages.paging(list.data?.has_more ?? false, rows.at(-1)?.id)}
        />
      )}
    </Page>
  );
}

/**
 * The filters being edited. When the address changes (back/forward, a bookmark) the form takes its
 * filters, adjusted during render rather than by remounting, so the control a keyboard user just
 * pressed keeps the focus.
 */
function FilterForm({ address, initial, onApply }: { address: string; initial: FilterParams; onApply: (filters: FilterParams) => void }) {
  const m = useMessages(paymentMessages);
  const [draft, setDraft] = useState<FilterParams>(initial);
  const [shownAddress, setShownAddress] = useState(address);
  if (address !== shownAddress) {
    setShownAddress(address);
    setDraft(initial);
  }
  const set = (name: (typeof FILTER_PARAMS)[number]) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [name]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const any = { value: "", label: m.filters.any };
  return (
    <form className="filters panel" role="search" aria-label={m.filters.legend} onSubmit={submit}>
      <SelectField
        label={m.filters.status}
        value={draft.status ?? ""}
        onChange={set("status")}
        options={[any, ...PAYMENT_STATUSES.map((s) => ({ value: s, label: label(m.statuses, s) }))]}
      />
      <SelectField
        label={m.filters.currency}
        value={draft.currency ?? ""}
        onChange={set("currency")}
        options={[any, ...CURRENCIES.map((c) => ({ value: c, label: c }))]}
      />
      <SelectField
        label={m.filters.method}
        value={draft.method ?? ""}
        onChange={set("method")}
        options={[any, ...METHODS.map((method) => ({ value: method, label: label(m.methods, method) }))]}
      />
      <TextField label={m.filters.from} type="date" value={draft.from ?? ""} onChange={set("from")} />
      <TextField label={m.filters.to} type="date" value={draft.to ?? ""} onChange={set("to")} />
      <TextField label={m.filters.search} type="search" hint={m.filters.searchHint} value={draft.search ?? ""} onChange={set("search")} maxLength={254} />
      <div className="form-actions">
        <button type="submit" className="button button-primary">
          {m.filters.apply}
        </button>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            setDraft({});
            onApply({});
          }}
        >
          {m.filters.clear}
        </button>
      </div>
    </form>
  );
}
