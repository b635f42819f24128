import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { FilterForm, useAddressFilters } from "../components/AddressFilters.tsx";
import { SelectField, TextField } from "../components/Field.tsx";
import { KeysetTable } from "../components/KeysetTable.tsx";
import { Page } from "../components/Page.tsx";
import { usePaymentColumns } from "../components/payment-columns.tsx";
import { useMessages } from "../i18n/i18n.tsx";
import { label } from "../i18n/label.ts";
import { paymentMessages } from "../i18n/messages/payments.ts";
import { useSession } from "../session.tsx";
import { useTRPC } from "../trpc.ts";
import "../styles/pages.css";
import { CURRENCIES, exportHref, filterInput, filtersFrom, METHODS, PAYMENT_STATUSES, type FilterParams } from "./payment-filters.ts";

/** The merchant's payments: filters in the address, keyset pages, and the CSV export of the same filters. */
export default function Payments() {
  const m = useMessages(paymentMessages);
  const { timeZone } = useSession();
  const trpc = useTRPC();
  const addressFilters = useAddressFilters(filtersFrom);
  const input = filterInput(addressFilters.filters, timeZone);
  const list = useQuery({
    ...trpc.dashboard.payments.list.queryOptions({ ...input, starting_after: addressFilters.pages.cursor }),
    placeholderData: keepPreviousData,
  });
  const columns = usePaymentColumns();
  const any = { value: "", label: m.filters.any };
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
      <FilterForm<FilterParams>
        state={addressFilters}
        labels={m.filters}
        fields={(bind) => (
          <>
            <SelectField
              label={m.filters.status}
              {...bind("status")}
              options={[any, ...PAYMENT_STATUSES.map((s) => ({ value: s, label: label(m.statuses, s) }))]}
            />
            <SelectField label={m.filters.currency} {...bind("currency")} options={[any, ...CURRENCIES.map((c) => ({ value: c, label: c }))]} />
            <SelectField
              label={m.filters.method}
              {...bind("method")}
              options={[any, ...METHODS.map((method) => ({ value: method, label: label(m.methods, method) }))]}
            />
            <TextField label={m.filters.from} type="date" {...bind("from")} />
            <TextField label={m.filters.to} type="date" {...bind("to")} />
            <TextField label={m.filters.search} type="search" hint={m.filters.searchHint} {...bind("search")} maxLength={254} />
          </>
        )}
      />
      <KeysetTable list={list} pages={addressFilters.pages} caption={m.table.caption} columns={columns} />
    </Page>
  );
}
