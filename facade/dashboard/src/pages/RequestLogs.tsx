import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "wouter";
import { DataTable, useKeysetPages, type Column } from "../components/DataTable.tsx";
import { SelectField, TextField } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { StatusBadge } from "../components/StatusBadge.tsx";
import { errorText } from "../errors.ts";
import { useFormat } from "../format/use-format.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { requestLogMessages } from "../i18n/messages/request-logs.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { useTRPC, type RouterOutputs } from "../trpc.ts";
import "../styles/pages.css";
import { LOG_FILTER_PARAMS, logFilterInput, logFiltersFrom, STATUS_CLASSES, statusTone, type LogFilterParams } from "./request-log-view.ts";

type LogRow = RouterOutputs["dashboard"]["requestLogs"]["list"]["data"][number];

/** The merchant's API requests in this mode: filters in the address, keyset pages, each row opening its log. */
export default function RequestLogs() {
  const m = useMessages(requestLogMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const format = useFormat();
  const trpc = useTRPC();
  const [params, setParams] = useSearchParams();
  const filters = logFiltersFrom(params);
  const pages = useKeysetPages();
  const list = useQuery({
    ...trpc.dashboard.requestLogs.list.queryOptions({ ...logFilterInput(filters), starting_after: pages.cursor }),
    placeholderData: keepPreviousData,
  });
  const apply = (next: LogFilterParams) => {
    pages.reset();
    setParams(Object.fromEntries(Object.entries(next).filter(([, value]) => value)));
  };
  const columns: Column<LogRow>[] = [
    { key: "time", header: m.table.time, cell: (l) => <span className="nowrap">{format.dateTime(l.created_at)}</span> },
    {
      key: "request",
      header: m.table.request,
      cell: (l) => (
        <Link href={`/request-logs/${l.id}`} className="mono">
          {`${l.method} ${l.path}`}
        </Link>
      ),
    },
    {
      key: "status",
      header: m.table.status,
      cell: (l) => (
        <StatusBadge tone={statusTone(l.status)}>
          {l.status}
          {l.code ? ` ${l.code}` : ""}
        </StatusBadge>
      ),
    },
    { key: "latency", header: m.table.latency, align: "end", cell: (l) => m.ms(l.latency_ms) },
    { key: "key", header: m.table.key, cell: (l) => <span className="mono">{l.api_key_id}</span> },
    { key: "request_id", header: m.table.requestId, cell: (l) => <span className="mono">{l.request_id}</span> },
  ];
  const rows = list.data?.data ?? [];
  return (
    <Page title={m.title}>
      <p className="muted">{m.intro}</p>
      <FilterForm address={params.toString()} initial={filters} onApply={apply} />
      {list.isError && <Notice tone="danger">{errorText(list.error, shell, lang)}</Notice>}
      {list.isPending ? (
        <Loading />
      ) : (
        <DataTable
          caption={m.table.caption}
          columns={columns}
          rows={rows}
          rowKey={(l) => l.id}
          paging={pages.paging(list.data?.has_more ?? false, rows.at(-1)?.id)}
        />
      )}
    </Page>
  );
}

/** The filters being edited; the address's filters replace them when it changes (back/forward). */
function FilterForm({ address, initial, onApply }: { address: string; initial: LogFilterParams; onApply: (filters: LogFilterParams) => void }) {
  const m = useMessages(requestLogMessages);
  const [draft, setDraft] = useState<LogFilterParams>(initial);
  const [shownAddress, setShownAddress] = useState(address);
  if (address !== shownAddress) {
    setShownAddress(address);
    setDraft(initial);
  }
  const set = (name: (typeof LOG_FILTER_PARAMS)[number]) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [name]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form className="filters panel" role="search" aria-label={m.filters.legend} onSubmit={submit}>
      <SelectField
        label={m.filters.status}
        value={draft.status ?? ""}
        onChange={set("status")}
        options={[{ value: "", label: m.filters.any }, ...STATUS_CLASSES.map((s) => ({ value: s, label: m.statusClasses[s] }))]}
      />
      <TextField label={m.filters.path} hint={m.filters.pathHint} value={draft.path ?? ""} onChange={set("path")} maxLength={2048} />
      <TextField label={m.filters.key} hint={m.filters.keyHint} value={draft.key ?? ""} onChange={set("key")} maxLength={64} />
      <TextField label={m.filters.requestId} value={draft.request ?? ""} onChange={set("request")} maxLength={128} />
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
