import { useState, type ReactNode } from "react";
import { useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";

export interface Column<Row> {
  /** Unique per table. */
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** Amounts right-aligned. */
  align?: "start" | "end";
}

export interface KeysetPaging {
  /** Whether the answer said there is more (`has_more`). */
  hasMore: boolean;
  /** Whether this is not the first page. */
  hasPrevious: boolean;
  next: () => void;
  previous: () => void;
}

/**
 * A captioned table of rows, with keyset paging under it ("previous" / "next page"). Wide tables
 * scroll inside their own box, so the page itself never scrolls sideways at 360 px.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  paging,
  empty,
  hideCaption = false,
}: {
  caption: string;
  /** The caption stays for screen readers but is not shown (when a heading right above says the same). */
  hideCaption?: boolean;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  paging?: KeysetPaging;
  empty?: ReactNode;
}) {
  const m = useMessages(shellMessages);
  return (
    <div className="table-block">
      {/* Focusable so a keyboard user can scroll a table wider than the screen. */}
      <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
        <table>
          <caption className={hideCaption ? "visually-hidden" : undefined}>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.key} scope="col" className={column.align === "end" ? "num" : undefined}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="table-empty">
                  {empty ?? m.table.empty}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <td key={column.key} className={column.align === "end" ? "num" : undefined}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {paging && (paging.hasMore || paging.hasPrevious) && (
        <nav className="pager" aria-label={m.table.pageLabel}>
          <button type="button" className="button button-secondary" onClick={paging.previous} disabled={!paging.hasPrevious}>
            {m.table.previous}
          </button>
          <button type="button" className="button button-secondary" onClick={paging.next} disabled={!paging.hasMore}>
            {m.table.next}
          </button>
        </nav>
      )}
    </div>
  );
}

/**
 * Keyset pages over a list procedure taking `starting_after`: pass `cursor` as the input's
 * `starting_after`, and `paging(hasMore, lastId)` to <DataTable>. Changing the filters should call
 * `reset()` (back to the first page).
 */
export function useKeysetPages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  return {
    cursor,
    reset: () => setCursors([undefined]),
    paging: (hasMore: boolean, lastId: string | undefined): KeysetPaging => ({
      hasMore: hasMore && lastId !== undefined,
      hasPrevious: cursors.length > 1,
      next: () => {
        if (lastId !== undefined) setCursors((stack) => [...stack, lastId]);
      },
      previous: () => setCursors((stack) => (stack.length > 1 ? stack.slice(0, -1) : stack)),
    }),
  };
}
