import { useLang, useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";
import { errorText } from "../errors.ts";
import { DataTable, type Column, type useKeysetPages } from "./DataTable.tsx";
import { Notice } from "./Notice.tsx";
import { Loading } from "./Page.tsx";

/** What a list page reads of its keyset query (a TanStack Query result of a `{ data, has_more }` answer). */
export interface KeysetQuery<Row> {
  data?: { data: Row[]; has_more: boolean };
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

/** A keyset list's query shown: its error, its loading state, then its rows, paged by `pages` (useKeysetPages). */
export function KeysetTable<Row extends { id: string }>({
  list,
  pages,
  caption,
  hideCaption = false,
  columns,
}: {
  list: KeysetQuery<Row>;
  pages: ReturnType<typeof useKeysetPages>;
  caption: string;
  /** The caption names the table for assistive technology only (a heading above already says it). */
  hideCaption?: boolean;
  columns: Column<Row>[];
}) {
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const rows = list.data?.data ?? [];
  return (
    <>
      {list.isError && <Notice tone="danger">{errorText(list.error, shell, lang)}</Notice>}
      {list.isPending ? (
        <Loading />
      ) : (
        <DataTable
          caption={caption}
          hideCaption={hideCaption}
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          paging={pages.paging(list.data?.has_more ?? false, rows.at(-1)?.id)}
        />
      )}
    </>
  );
}
