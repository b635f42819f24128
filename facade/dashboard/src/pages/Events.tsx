import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import { DataTable, useKeysetPages } from "../components/DataTable.tsx";
import { SelectField } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { errorText } from "../errors.ts";
import { useFormat } from "../format/use-format.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";
import { webhookMessages } from "../i18n/messages/webhooks.ts";
import { useTRPC } from "../trpc.ts";
import "../styles/pages.css";
import { EVENT_TYPE_OPTIONS } from "./webhook-view.ts";

/** The event explorer: GET /v1/events for the session's merchant and mode, newest first, by type, in keyset pages. */
export default function Events() {
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const format = useFormat();
  const trpc = useTRPC();
  const pages = useKeysetPages();
  const [type, setType] = useState("");
  const list = useQuery(trpc.dashboard.events.list.queryOptions({ starting_after: pages.cursor, ...(type ? { type } : {}) }));
  const rows = list.data?.data ?? [];
  return (
    <Page title={m.events.title}>
      <form className="filters" role="search" aria-label={m.events.filters} onSubmit={(e) => e.preventDefault()}>
        <SelectField
          label={m.events.type}
          name="type"
          value={type}
          onChange={(e) => {
            setType(e.target.value);
            pages.reset();
          }}
          options={[{ value: "", label: m.events.anyType }, ...EVENT_TYPE_OPTIONS.map((t) => ({ value: t, label: t }))]}
        />
      </form>
      {list.isError && <Notice tone="danger">{errorText(list.error, shell, lang)}</Notice>}
      {list.isPending ? (
        <Loading />
      ) : (
        <DataTable
          caption={m.events.caption}
          rows={rows}
          rowKey={(e) => e.id}
          paging={pages.paging(list.data?.has_more ?? false, rows.at(-1)?.id)}
          columns={[
            {
              key: "id",
              header: m.events.id,
              cell: (e) => (
                <Link href={`/events/${e.id}`} className="mono">
                  {e.id}
                </Link>
              ),
            },
            { key: "type", header: m.events.type, cell: (e) => <span className="mono">{e.type}</span> },
            { key: "object", header: m.events.object, cell: (e) => <span className="mono">{objectId(e.data)}</span> },
            { key: "created", header: m.events.created, cell: (e) => format.dateTime(e.created_at) },
          ]}
        />
      )}
    </Page>
  );
}

/** The id of the object an event is about (its data's `id`), if it has one. */
function objectId(data: unknown): string {
  const id = (data as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : "";
}
