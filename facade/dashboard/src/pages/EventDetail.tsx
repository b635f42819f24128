import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "wouter";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { errorText } from "../errors.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";
import { webhookMessages } from "../i18n/messages/webhooks.ts";
import { useTRPC } from "../trpc.ts";
import "../styles/pages.css";
import { Deliveries } from "./DeliveryList.tsx";
import { prettyJson } from "./webhook-view.ts";

/** One event: its envelope as delivered (pretty JSON, shown as text) and the deliveries it made to each endpoint. */
export default function EventDetail() {
  const { id } = useParams<{ id: string }>();
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const event = useQuery(trpc.dashboard.events.get.queryOptions({ id }));
  const deliveries = useQuery({ ...trpc.dashboard.events.deliveries.queryOptions({ id }), refetchInterval: 2_000 });
  return (
    <Page title={m.events.detailTitle(id)} actions={<Link href="/events">{m.events.back}</Link>}>
      {event.isPending ? (
        <Loading />
      ) : event.isError ? (
        <Notice tone="danger">{errorText(event.error, shell, lang)}</Notice>
      ) : event.data === null ? (
        <Notice tone="warning">{m.events.notFound}</Notice>
      ) : (
        <>
          <section className="panel" aria-labelledby="event-json-heading">
            <h2 id="event-json-heading">{m.events.json}</h2>
            {/* Focusable so a keyboard user can scroll a long document. */}
            <pre className="json" tabIndex={0} data-testid="event-json" aria-labelledby="event-json-heading">
              {prettyJson(event.data)}
            </pre>
          </section>
          <section aria-labelledby="event-deliveries-heading">
            <h2 id="event-deliveries-heading">{m.events.deliveries}</h2>
            {deliveries.isError && <Notice tone="danger">{errorText(deliveries.error, shell, lang)}</Notice>}
            {deliveries.isPending ? <Loading /> : <Deliveries rows={deliveries.data?.data ?? []} showEndpoint />}
          </section>
        </>
      )}
    </Page>
  );
}
