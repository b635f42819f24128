// The CSV export of the dashboard's filtered payments list: every matching payment, newest first,
// read in keyset batches (DASHBOARD_EXPORT_BATCH rows a query, no transaction held open) and handed
// out one batch of text at a time, so the transport's backpressure paces the reads and memory stays
// about two batches (the one written, the next one read) whatever the export's size.
import { decimalAmount } from "../../../proto/format-money.ts";
import { sql } from "kysely";
import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import { csvRow } from "./csv.ts";
import type { CoreDeps } from "./deps.ts";
import type { PageCursor } from "./keyset-page.ts";
import { filteredPayments, parsePaymentFilters, type PaymentFilterInput } from "./payment-filters.ts";
import type { Tx } from "./unit-of-work.ts";

export const EXPORT_COLUMNS = [
  "id",
  "created_at",
  "status",
  "currency",
  "method_type",
  "amount",
  "service_fee",
  "net_amount",
  "customer_email",
  "customer_name",
  "description",
  "link_id",
] as const;

export interface PaymentsExport {
  /** payments-<mode>-<YYYY-MM-DD>.csv */
  filename: string;
  /** The header row, then one chunk of rows per batch. */
  chunks: AsyncIterable<string>;
}

// The time as the CSV writes it, made by PostgreSQL: parsing every timestamp into a Date to print it
// again was most of the export's own CPU. Times are stored to the millisecond, so the text is exact
// and serves as the next batch's cursor too.
const CREATED_TEXT = sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as("created");

const SELECTED = [
  CREATED_TEXT,
  "seq",
  "id",
  "status",
  "currency",
  "method_type",
  "amount",
  "service_fee",
  "net_amount",
  "customer_email",
  "customer_name",
  "description",
  "link_id",
] as const;

/** Checks the filters now (a bad one is validation_error before anything is sent); the rows are read as they are consumed. */
export async function exportPayments(deps: CoreDeps, tx: Tx, caller: MerchantCaller, input: PaymentFilterInput): Promise<PaymentsExport> {
  const filters = parsePaymentFilters(input);
  const batch = deps.config.dashboardViews.exportBatch;
  const read = (after: PageCursor | undefined) =>
    filteredPayments(db(tx).selectFrom("payments").select(SELECTED), caller, filters, after).limit(batch).execute();
  async function* chunks(): AsyncGenerator<string> {
    yield csvRow(EXPORT_COLUMNS);
    let pending = read(undefined);
    for (;;) {
      const rows = await pending;
      if (rows.length === 0) return;
      // The next batch is read while this one is written: PostgreSQL and the socket overlap, and at
      // most two batches are held. Its failure is seen when it is awaited (not as unhandled if the
      // download ends first).
      const last = rows[rows.length - 1]!;
      const next = rows.length < batch ? undefined : read({ created_at: new Date(last.created), seq: last.seq });
      next?.catch(() => undefined);
      let text = "";
      for (const r of rows) {
        text += csvRow([
          r.id,
          r.created,
          r.status,
          r.currency,
          r.method_type,
          decimalAmount(r.amount),
          decimalAmount(r.service_fee),
          decimalAmount(r.net_amount),
          r.customer_email,
          r.customer_name,
          r.description,
          r.link_id,
        ]);
      }
      yield text;
      if (!next) return;
      pending = next;
    }
  }
  return { filename: `payments-${caller.mode}-${deps.now().toISOString().slice(0, 10)}.csv`, chunks: chunks() };
}
