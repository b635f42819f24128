// The merchants' request logs (issue 17 item 4) as the dashboard (list with filters, one log) and
// `paytami logs tail` read them; request-log-insert.ts writes them.
import type { Mode } from "../config.ts";
import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { keysetPage, parseLimit, type Page, type PageCursor } from "./keyset-page.ts";
import type { Tx } from "./unit-of-work.ts";

export interface RequestLogItem {
  id: string;
  created_at: string;
  method: string;
  path: string;
  status: number;
  code: string | null;
  latency_ms: number;
  request_id: string;
  api_key_id: string;
  idempotency_key: string | null;
  replayed: boolean;
  client_ip: string | null;
}

export interface RequestLogDetail extends RequestLogItem {
  mode: Mode;
  /** Redacted JSON text as the facade stored it (capped: then no longer JSON), or null. */
  request_body: string | null;
  response_body: string | null;
}

export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export interface RequestLogQuery {
  limit?: number | undefined;
  starting_after?: string | undefined;
  status_class?: string | undefined;
  path?: string | undefined;
  api_key_id?: string | undefined;
  request_id?: string | undefined;
}

const LIST_COLUMNS = [
  "seq",
  "created_at",
  "method",
  "path",
  "status",
  "code",
  "latency_ms",
  "request_id",
  "api_key_id",
  "idempotency_key",
  "replayed",
  "client_ip",
] as const;

/** A row as the list reads it: the item's fields, but the key and the time as PostgreSQL gives them. */
type ListRow = Omit<RequestLogItem, "id" | "created_at"> & { seq: string; created_at: Date };

const toItem = ({ seq, created_at, ...rest }: ListRow): RequestLogItem => ({ id: String(seq), created_at: created_at.toISOString(), ...rest });

const isLogId = (id: string) => /^[1-9]\d{0,17}$/.test(id);

function statusRange(statusClass: string | undefined): [number, number] | undefined {
  if (statusClass === undefined || statusClass === "") return undefined;
  if (!(STATUS_CLASSES as readonly string[]).includes(statusClass)) fail("validation_error", `status_class must be one of ${STATUS_CLASSES.join(", ")}.`);
  const hundreds = Number(statusClass[0]) * 100;
  return [hundreds, hundreds + 99];
}

/** A filter value: absent or blank is no filter; anything else at most `max` characters. */
function filterText(name: string, value: string | undefined, max: number): string | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (value.length > max) fail("validation_error", `${name} must be at most ${max} characters.`);
  return value.trim();
}

/** The caller's logs: its merchant and mode; nothing else is ever read. */
const ownLogs = (tx: Tx, caller: MerchantCaller) =>
  db(tx).selectFrom("request_logs").where("merchant_id", "=", caller.merchantId).where("mode", "=", caller.mode);

/** The list's filters, checked (validation_error naming the first bad one). */
export interface RequestLogFilters {
  status?: [number, number] | undefined;
  path?: string | undefined;
  apiKeyId?: string | undefined;
  requestId?: string | undefined;
}

export function parseRequestLogFilters(query: RequestLogQuery): RequestLogFilters {
  return {
    status: statusRange(query.status_class),
    path: filterText("path", query.path, 2048),
    apiKeyId: filterText("api_key_id", query.api_key_id, 64),
    requestId: filterText("request_id", query.request_id, 128),
  };
}

/**
 * The caller's logs that pass the filters, below `after`, newest first. request_logs_list_idx walks
 * them in order; request_logs_failed_idx (partial: status >= 400) answers a 4xx or 5xx filter, which
 * a walk of the list would answer only after reading the whole retention window; the request id has
 * request_logs_request_id_idx.
 */
export function filteredRequestLogs(tx: Tx, caller: MerchantCaller, f: RequestLogFilters, after: PageCursor | undefined) {
  let rows = ownLogs(tx, caller).select([...LIST_COLUMNS]);
  if (f.status) rows = rows.where("status", ">=", f.status[0]).where("status", "<=", f.status[1]);
  if (f.path !== undefined) rows = rows.where("path", "=", f.path);
  if (f.apiKeyId !== undefined) rows = rows.where("api_key_id", "=", f.apiKeyId);
  if (f.requestId !== undefined) rows = rows.where("request_id", "=", f.requestId);
  if (after) rows = rows.where((eb) => eb(eb.refTuple("created_at", "seq"), "<", eb.tuple(after.created_at, after.seq)));
  return rows.orderBy("created_at", "desc").orderBy("seq", "desc");
}

/** The caller's merchant and mode's logs, newest first, keyset pages on (created_at, seq), with the dashboard's filters. */
export async function listRequestLogs(_deps: CoreDeps, tx: Tx, caller: MerchantCaller, query: RequestLogQuery): Promise<Page<RequestLogItem>> {
  const limit = parseLimit(query.limit);
  const filters = parseRequestLogFilters(query);
  return keysetPage(limit, query.starting_after, {
    noun: "request logs",
    findCursor: async (id) => (isLogId(id) ? ownLogs(tx, caller).select(["created_at", "seq"]).where("seq", "=", id).executeTakeFirst() : undefined),
    fetch: (after, take) => filteredRequestLogs(tx, caller, filters, after).limit(take).execute(),
    view: toItem,
  });
}

/** One of the caller's logs with its (redacted) bodies. */
export async function getRequestLog(_deps: CoreDeps, tx: Tx, caller: MerchantCaller, id: string): Promise<RequestLogDetail> {
  const row = isLogId(id)
    ? await ownLogs(tx, caller)
        .select([...LIST_COLUMNS, "mode", "request_body", "response_body"])
        .where("seq", "=", id)
        .executeTakeFirst()
    : undefined;
  if (!row) return fail("validation_error", `Unknown request log ${id}.`);
  return { ...toItem(row), mode: row.mode as Mode, request_body: row.request_body, response_body: row.response_body };
}

export interface RequestLogTail {
  data: RequestLogItem[];
  /** Where the next poll continues (`after`): the last row's id, or the newest id there was. */
  cursor: string;
}

/** How far back a tail looks: a record is written seconds after its request at most, unless NATS held it. */
const TAIL_WINDOW_MS = 10 * 60_000;

/**
 * `paytami logs tail`: the logs written after `after` (a row id; absent: none, only the cursor of
 * the newest row), oldest first, at most `limit`, with the list's status-class filter.
 */
export async function tailRequestLogs(
  deps: CoreDeps,
  tx: Tx,
  caller: MerchantCaller,
  query: { after?: string | undefined; status_class?: string | undefined; limit?: number | undefined },
): Promise<RequestLogTail> {
  const limit = parseLimit(query.limit);
  const range = statusRange(query.status_class);
  const own = ownLogs(tx, caller);
  if (query.after === undefined) {
    // No start: the newest id of the whole table, so whatever is written next comes after it.
    const newest = await db(tx)
      .selectFrom("request_logs")
      .select((eb) => eb.fn.max("seq").as("seq"))
      .executeTakeFirst();
    return { data: [], cursor: String(newest?.seq ?? "0") };
  }
  if (!/^\d{1,18}$/.test(query.after)) fail("validation_error", "after must be a request log id.");
  let rows = own
    .select([...LIST_COLUMNS])
    .where("created_at", ">", new Date(deps.now().getTime() - TAIL_WINDOW_MS))
    .where("seq", ">", query.after);
  if (range) rows = rows.where("status", ">=", range[0]).where("status", "<=", range[1]);
  const found = (await rows.orderBy("seq", "asc").limit(limit).execute()) as ListRow[];
  return { data: found.map(toItem), cursor: found.at(-1)?.seq ?? query.after };
}
