import { fail } from "./errors.ts";

/** Where a page starts: the (created_at, seq) of the last item the client saw. */
export interface PageCursor {
  created_at: Date;
  seq: string;
}

export interface PageQuery {
  limit?: number | undefined;
  starting_after?: string | undefined;
  /** Why the transport could not read the query, if it could not. */
  malformed?: string | undefined;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
}

const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 100;

export function parseLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) fail("validation_error", `limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  return limit;
}

export interface KeysetSource<Row, T> {
  /** "payments", "payment links", "events": named in the error for a foreign `starting_after`. */
  noun: string;
  /** The cursor of one of the caller's own items, or undefined (unknown, malformed, another merchant's or mode's). */
  findCursor: (id: string) => Promise<PageCursor | undefined>;
  /** Up to `take` rows newest first, on (created_at, seq) strictly below `after` when given. */
  fetch: (after: PageCursor | undefined, take: number) => Promise<Row[]>;
  view: (row: Row) => T;
}

/**
 * Every list of the API: newest first, keyset-paginated on (created_at, seq) so inserts never shift
 * pages, one row more than asked to say whether there is more. The caller has read the query (the
 * transport's `malformed`, `parseLimit`, its own filters) first: that is the documented check order.
 */
export async function keysetPage<Row, T>(limit: number, startingAfter: string | undefined, source: KeysetSource<Row, T>): Promise<Page<T>> {
  let cursor: PageCursor | undefined;
  if (startingAfter !== undefined) {
    cursor = await source.findCursor(startingAfter);
    if (!cursor) fail("validation_error", `starting_after must be the id of one of your ${source.noun}.`);
  }
  const rows = await source.fetch(cursor, limit + 1);
  return { data: rows.slice(0, limit).map(source.view), has_more: rows.length > limit };
}
