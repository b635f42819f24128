import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { CopyButton } from "../components/CopyButton.tsx";
import { DataTable } from "../components/DataTable.tsx";
import { TextField } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { StatusBadge } from "../components/StatusBadge.tsx";
import { errorText } from "../errors.ts";
import { useFormat } from "../format/use-format.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";
import { webhookMessages } from "../i18n/messages/webhooks.ts";
import { useTRPC } from "../trpc.ts";
import "../styles/pages.css";
import { EventPicker } from "./EventPicker.tsx";

/** The merchant's webhook endpoints in this mode, and the form to add one (developers and up: the nav shows the page to them only). */
export default function Webhooks() {
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const format = useFormat();
  const trpc = useTRPC();
  const list = useQuery(trpc.dashboard.webhooks.list.queryOptions(undefined));
  return (
    <Page title={m.title}>
      <p>{m.intro}</p>
      {list.isError && <Notice tone="danger">{errorText(list.error, shell, lang)}</Notice>}
      {list.isPending ? (
        <Loading />
      ) : (
        <DataTable
          caption={m.table.caption}
          rows={list.data?.data ?? []}
          rowKey={(e) => e.id}
          columns={[
            {
              key: "url",
              header: m.table.url,
              cell: (e) => (
                <Link href={`/webhooks/${e.id}`} className="mono">
                  {e.url}
                </Link>
              ),
            },
            { key: "events", header: m.table.events, cell: (e) => (e.enabled_events.length === 0 ? m.allEvents : e.enabled_events.join(", ")) },
            {
              key: "state",
              header: m.table.state,
              cell: (e) => <StatusBadge tone={e.enabled ? "success" : "neutral"}>{e.enabled ? m.enabled : m.disabled}</StatusBadge>,
            },
            { key: "created", header: m.table.created, cell: (e) => format.dateTime(e.created_at) },
          ]}
        />
      )}
      <CreateEndpoint />
    </Page>
  );
}

function CreateEndpoint() {
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const client = useQueryClient();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const create = useMutation(
    trpc.dashboard.webhooks.create.mutationOptions({
      onSuccess: async () => {
        setUrl("");
        setEvents([]);
        await client.invalidateQueries({ queryKey: trpc.dashboard.webhooks.list.pathKey() });
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ url: url.trim(), enabled_events: events });
  };
  return (
    <section className="panel" aria-labelledby="webhook-create-heading">
      <h2 id="webhook-create-heading">{m.create.title}</h2>
      {create.isError && <Notice tone="danger">{errorText(create.error, shell, lang)}</Notice>}
      {create.data && (
        <Notice tone="success">
          <p>
            {m.create.created}{" "}
            <Link href={`/webhooks/${create.data.endpoint.id}`} className="mono">
              {create.data.endpoint.url}
            </Link>
          </p>
          <code className="secret" data-testid="new-endpoint-secret">
            {create.data.secret}
          </code>{" "}
          <CopyButton text={create.data.secret} label={m.detail.secret} />
          <p>{m.create.secretOnce}</p>
        </Notice>
      )}
      <form onSubmit={submit} noValidate>
        <TextField label={m.create.url} name="url" type="url" required hint={m.create.urlHint} value={url} onChange={(e) => setUrl(e.target.value)} />
        <EventPicker legend={m.create.events} hint={m.create.eventsHint} selected={events} onChange={setEvents} />
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={create.isPending || url.trim() === ""}>
            {m.create.submit}
          </button>
        </div>
      </form>
    </section>
  );
}
