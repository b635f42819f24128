import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import { useKeysetPages } from "../components/DataTable.tsx";
import { KeysetTable } from "../components/KeysetTable.tsx";
import { SelectField } from "../components/Field.tsx";
import { Page } from "../components/Page.tsx";
import { useFormat } from "../format/use-format.ts";
import { useMessages } from "../i18n/i18n.tsx";
import { webhookMessages } from "../i18n/messages/webhooks.ts";
import { useTRPC } from "../trpc.ts";
import "../styles/pages.css";
import { EVENT_TYPE_OPTIONS } from "./webhook-view.ts";

/** The event explorer: GET /v1/events for the session's merchant and mode, newest first, by type, in keyset pages. */
export default function Events() {
  const m = useMessages(webhookMessages);
  const format = useFormat();
  const trpc = useTRPC();
  const pages = useKeysetPages();
  const [type, setType] = useState("");
  const list = useQuery(trpc.dashboard.events.list.queryOptions({ starting_after: pages.cursor, ...(type ? { type } : {}) }));
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
      <KeysetTable
        list={list}
        pages={pages}
        caption={m.events.caption}
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
    </Page>
  );
}

/** The id of the object an event is about (its data's `id`), if it has one. */
function objectId(data: unknown): string {
  const id = (data as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : "";
}
