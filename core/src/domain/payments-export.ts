// The CSV export of the dashboard's filtered payments list: every matching payment, newest first,
// read in keyset batches (DASHBOARD_EXPORT_BATCH rows a query, no transaction held open) and handed
// out one batch of text at a time, so the transport's backpressure paces the reads and memory stays
// about one batch whatever the export's size.
import { decimalAmount } from "../../../proto/format-money.ts";
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

const SELECTED = [
  "created_at",
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
  async function* chunks(): AsyncGenerator<string> {
    yield csvRow(EXPORT_COLUMNS);
    let after: PageCursor | undefined;
    for (;;) {
      const rows = await filteredPayments(db(tx).selectFrom("payments").select(SELECTED), caller, filters, after).limit(batch).execute();
      if (rows.length === 0) return;
      let text = "";
      for (const r of rows) {
        text += csvRow([
          r.id,
          r.created_at.toISOString(),
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
      if (rows.length < batch) return;
      const last = rows[rows.length - 1]!;
      after = { created_at: last.created_at, seq: last.seq };
    }
  }
  return { filename: `payments-${caller.mode}-${deps.now().toISOString().slice(0, 10)}.csv`, chunks: chunks() };
}
