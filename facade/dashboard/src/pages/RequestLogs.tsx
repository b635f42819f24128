import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { FilterForm, useAddressFilters } from "../components/AddressFilters.tsx";
import { type Column } from "../components/DataTable.tsx";
import { SelectField, TextField } from "../components/Field.tsx";
import { KeysetTable } from "../components/KeysetTable.tsx";
import { Page } from "../components/Page.tsx";
import { StatusBadge } from "../components/StatusBadge.tsx";
import { useFormat } from "../format/use-format.ts";
import { useMessages } from "../i18n/i18n.tsx";
import { requestLogMessages } from "../i18n/messages/request-logs.ts";
import { useTRPC, type RouterOutputs } from "../trpc.ts";
import "../styles/pages.css";
import { logFilterInput, logFiltersFrom, STATUS_CLASSES, statusTone, type LogFilterParams } from "./request-log-view.ts";

type LogRow = RouterOutputs["dashboard"]["requestLogs"]["list"]["data"][number];

/** The merchant's API requests in this mode: filters in the address, keyset pages, each row opening its log. */
export default function RequestLogs() {
  const m = useMessages(requestLogMessages);
  const format = useFormat();
  const trpc = useTRPC();
  const addressFilters = useAddressFilters(logFiltersFrom);
  const list = useQuery({
    ...trpc.dashboard.requestLogs.list.queryOptions({ ...logFilterInput(addressFilters.filters), starting_after: addressFilters.pages.cursor }),
    placeholderData: keepPreviousData,
  });
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
  return (
    <Page title={m.title}>
      <p className="muted">{m.intro}</p>
      <FilterForm<LogFilterParams>
        state={addressFilters}
        labels={m.filters}
        fields={(bind) => (
          <>
            <SelectField
              label={m.filters.status}
              {...bind("status")}
              options={[{ value: "", label: m.filters.any }, ...STATUS_CLASSES.map((s) => ({ value: s, label: m.statusClasses[s] }))]}
            />
            <TextField label={m.filters.path} hint={m.filters.pathHint} {...bind("path")} maxLength={2048} />
            <TextField label={m.filters.key} hint={m.filters.keyHint} {...bind("key")} maxLength={64} />
            <TextField label={m.filters.requestId} {...bind("request")} maxLength={128} />
          </>
        )}
      />
      <KeysetTable list={list} pages={addressFilters.pages} caption={m.table.caption} columns={columns} />
    </Page>
  );
}
