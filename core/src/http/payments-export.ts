// GET /dashboard/export/payments.csv on the core's HTTP port: the dashboard's filtered payments as
// CSV, for the caller the request proves (the facade's credential and a dashboard session, as the
// dashboard's tRPC). Streamed: each batch of rows is written when the socket has taken the last
// (stream.pipeline's backpressure), so memory stays about one batch (DASHBOARD_EXPORT_BATCH).
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { TRPCError } from "@trpc/server";
import type { MerchantCaller } from "../domain/caller.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { DomainError } from "../domain/errors.ts";
import { runOperation } from "../domain/operation.ts";
import { dashboard } from "../operations/dashboard.ts";
import { TRPC_CODE } from "../trpc/init.ts";

export const PAYMENTS_EXPORT_PATH = "/dashboard/export/payments.csv";

/** The query parameters the export takes: the payments list's filters. */
const FILTERS = ["status", "currency", "method", "created_from", "created_to", "search"] as const;

/** Whom an export request is for; throws a DomainError (unauthorized) when the request proves no one. `clear` is set when a presented session has ended. */
export type ExportCaller = (req: IncomingMessage, answer: { clear?: true }) => Promise<MerchantCaller>;

function refuse(res: ServerResponse, error: DomainError, clear: boolean): void {
  const status = getHTTPStatusCodeFromError(new TRPCError({ code: TRPC_CODE[error.code] }));
  res.writeHead(status, {
    "content-type": "application/json",
    "cache-control": "no-store",
    ...(clear ? { "x-paytami-session-clear": "1" } : {}),
  });
  res.end(JSON.stringify({ error: { code: error.code, message: error.message } }));
}

/** The filters of the query string; a repeated or unknown parameter is validation_error (the list would not know which to use). */
function filtersOf(url: string): Record<string, string> {
  const params = new URL(url, "http://core").searchParams;
  const filters: Record<string, string> = {};
  for (const [name, value] of params) {
    if (!(FILTERS as readonly string[]).includes(name))
      throw new DomainError("validation_error", `Unknown parameter ${name}; the export takes ${FILTERS.join(", ")}.`);
    if (name in filters) throw new DomainError("validation_error", `${name} is given more than once.`);
    filters[name] = value;
  }
  return filters;
}

export function paymentsExportHandler(deps: CoreDeps, callerOf: ExportCaller): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const answer: { clear?: true } = {};
    let csv;
    try {
      const caller = await callerOf(req, answer);
      csv = await runOperation(deps, dashboard.exportPayments, caller, filtersOf(req.url ?? ""));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return refuse(res, error, answer.clear === true);
    }
    res.writeHead(200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${csv.filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
    // A failure after the header is on the wire rejects here: the listener cuts the connection (a
    // truncated download, never a wrong one). A browser that went away ends the reads quietly.
    await pipeline(Readable.from(csv.chunks), res).catch((error: unknown) => {
      if ((error as { code?: string }).code !== "ERR_STREAM_PREMATURE_CLOSE") throw error;
    });
  };
}
