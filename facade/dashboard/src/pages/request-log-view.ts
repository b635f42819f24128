// What the request-log pages show that is not markup: a body pretty-printed, a status's tone.
import type { Tone } from "../components/StatusBadge.tsx";

/** A stored body as indented JSON; a capped body (no longer JSON) as it was stored. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

export function statusTone(status: number): Tone {
  if (status >= 500) return "danger";
  if (status >= 400) return "warning";
  return "success";
}

/** The list's filters as they live in the page's address (so a filtered list can be bookmarked). */
export const LOG_FILTER_PARAMS = ["status", "path", "key", "request"] as const;
export type LogFilterParams = Partial<Record<(typeof LOG_FILTER_PARAMS)[number], string>>;
export const STATUS_CLASSES = ["2xx", "4xx", "5xx"] as const;

export function logFiltersFrom(params: URLSearchParams): LogFilterParams {
  const filters: LogFilterParams = {};
  for (const name of LOG_FILTER_PARAMS) {
    const value = params.get(name)?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

/** The filters as dashboard.requestLogs.list names them; an unknown status class is left out. */
export function logFilterInput(filters: LogFilterParams) {
  const statusClass = STATUS_CLASSES.find((s) => s === filters.status);
  return {
    ...(statusClass ? { status_class: statusClass } : {}),
    ...(filters.path ? { path: filters.path } : {}),
    ...(filters.key ? { api_key_id: filters.key } : {}),
    ...(filters.request ? { request_id: filters.request } : {}),
  };
}
