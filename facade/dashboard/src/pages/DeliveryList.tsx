import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { DataTable, useKeysetPages } from "../components/DataTable.tsx";
import { SelectField } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading } from "../components/Page.tsx";
import { StatusBadge, type Tone } from "../components/StatusBadge.tsx";
import { errorText } from "../errors.ts";
import { useFormat } from "../format/use-format.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { label } from "../i18n/label.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { webhookMessages } from "../i18n/messages/webhooks.ts";
import { atLeast } from "../roles.ts";
import { useSession } from "../session.tsx";
import { useTRPC, type RouterOutputs } from "../trpc.ts";
import { EVENT_TYPE_OPTIONS } from "./webhook-view.ts";

type Attempt = RouterOutputs["dashboard"]["webhooks"]["delivery"]["attempts"][number];
/** A delivery as the endpoint's list has it (with its attempts) or as an event's list has it (without: they are fetched). */
type Delivery = RouterOutputs["dashboard"]["events"]["deliveries"]["data"][number] & { attempts?: readonly Attempt[] };

const TONES: Record<string, Tone> = { succeeded: "success", failed: "danger", pending: "warning" };

/** An endpoint's deliveries, newest first in keyset pages, each with every attempt; the failed-only and event-type filters. */
export function DeliveryList({ endpointId }: { endpointId: string }) {
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const pages = useKeysetPages();
  const [onlyFailed, setOnlyFailed] = useState(false);
  const [type, setType] = useState("");
  const list = useQuery({
    ...trpc.dashboard.webhooks.deliveries.queryOptions({
      endpoint_id: endpointId,
      starting_after: pages.cursor,
      ...(onlyFailed ? { failed: true } : {}),
      ...(type ? { event_type: type } : {}),
    }),
    // Deliveries move on their own (the dispatchers' attempts): the page follows them.
    refetchInterval: 2_000,
  });
  const rows = list.data?.data ?? [];
  const paging = pages.paging(list.data?.has_more ?? false, rows.at(-1)?.id);
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">{m.deliveries.title}</h2>
      <form className="filters" role="search" aria-label={m.deliveries.filters} onSubmit={(e) => e.preventDefault()}>
        <fieldset className="choices">
          <legend>{m.deliveries.status}</legend>
          <label>
            <input
              type="checkbox"
              name="only_failed"
              checked={onlyFailed}
              onChange={(e) => {
                setOnlyFailed(e.target.checked);
                pages.reset();
              }}
            />{" "}
            {m.deliveries.onlyFailed}
          </label>
        </fieldset>
        <SelectField
          label={m.deliveries.eventType}
          name="event_type"
          value={type}
          onChange={(e) => {
            setType(e.target.value);
            pages.reset();
          }}
          options={[{ value: "", label: m.deliveries.anyType }, ...EVENT_TYPE_OPTIONS.map((t) => ({ value: t, label: t }))]}
        />
      </form>
      {list.isError && <Notice tone="danger">{errorText(list.error, shell, lang)}</Notice>}
      {list.isPending ? <Loading /> : <Deliveries rows={rows} />}
      {(paging.hasMore || paging.hasPrevious) && (
        <nav className="pager" aria-label={shell.table.pageLabel}>
          <button type="button" className="button button-secondary" onClick={paging.previous} disabled={!paging.hasPrevious}>
            {shell.table.previous}
          </button>
          <button type="button" className="button button-secondary" onClick={paging.next} disabled={!paging.hasMore}>
            {shell.table.next}
          </button>
        </nav>
      )}
    </section>
  );
}

/** Deliveries, each with its every attempt; replay for developers and up. */
export function Deliveries({ rows, showEndpoint = false }: { rows: readonly Delivery[]; showEndpoint?: boolean }) {
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const format = useFormat();
  const { me } = useSession();
  if (rows.length === 0) return <p className="muted">{shell.table.empty}</p>;
  return (
    <ul className="plain deliveries" aria-label={m.deliveries.caption}>
      {rows.map((d) => (
        <li key={d.id} className="panel" data-testid="delivery" data-delivery-id={d.id}>
          <h3 className="mono">{d.id}</h3>
          <dl className="facts">
            <div className="item">
              <dt>{m.deliveries.event}</dt>
              <dd>
                <Link href={`/events/${d.event_id}`} className="mono">
                  {d.event_id}
                </Link>{" "}
                <span className="mono">{d.event_type}</span>
              </dd>
            </div>
            {showEndpoint && (
              <div className="item">
                <dt>{m.events.endpoint}</dt>
                <dd>
                  <Link href={`/webhooks/${d.endpoint_id}`} className="mono">
                    {d.endpoint_id}
                  </Link>
                </dd>
              </div>
            )}
            <div className="item">
              <dt>{m.deliveries.status}</dt>
              <dd>
                <StatusBadge tone={TONES[d.status] ?? "neutral"}>{label(m.deliveries.statuses, d.status)}</StatusBadge>
              </dd>
            </div>
            <div className="item">
              <dt>{m.deliveries.attempts}</dt>
              <dd>{d.attempt_count}</dd>
            </div>
            <div className="item">
              <dt>{m.deliveries.created}</dt>
              <dd>{format.dateTime(d.created_at)}</dd>
            </div>
          </dl>
          {d.attempts ? <Attempts id={d.id} attempts={d.attempts} /> : <FetchedAttempts id={d.id} count={d.attempt_count} />}
          {atLeast(me.role, "developer") && <Replay endpointId={d.endpoint_id} id={d.id} />}
        </li>
      ))}
    </ul>
  );
}

/** A delivery's attempts when the list did not bring them (an event's deliveries): asked again when the count moves. */
function FetchedAttempts({ id, count }: { id: string; count: number }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.dashboard.webhooks.delivery.queryOptions({ id }));
  const { refetch } = detail;
  useEffect(() => {
    void refetch();
  }, [count, refetch]);
  return <Attempts id={id} attempts={detail.data?.attempts ?? []} />;
}

/** One delivery's attempts, oldest first; the response excerpt is the receiver's text, shown as text only. */
function Attempts({ id, attempts }: { id: string; attempts: readonly Attempt[] }) {
  const m = useMessages(webhookMessages);
  const format = useFormat();
  if (attempts.length === 0) return <p className="muted">{m.deliveries.noAttempts}</p>;
  return (
    <DataTable
      caption={m.deliveries.attemptsCaption(id)}
      hideCaption
      rows={attempts.map((a, n) => ({ ...a, n }))}
      rowKey={(a) => String(a.n)}
      columns={[
        { key: "time", header: m.deliveries.attemptTime, cell: (a) => format.dateTime(a.attempted_at) },
        {
          key: "status",
          header: m.deliveries.attemptStatus,
          cell: (a) => <span data-testid="attempt-status">{a.http_status !== null ? String(a.http_status) : (a.error ?? m.deliveries.noResponse)}</span>,
        },
        { key: "latency", header: m.deliveries.latency, align: "end", cell: (a) => <span data-testid="attempt-latency">{m.deliveries.ms(a.latency_ms)}</span> },
        {
          key: "excerpt",
          header: m.deliveries.excerpt,
          cell: (a) => (
            <code className="mono excerpt" data-testid="attempt-excerpt">
              {a.response_excerpt}
            </code>
          ),
        },
      ]}
    />
  );
}

function Replay({ endpointId, id }: { endpointId: string; id: string }) {
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const client = useQueryClient();
  const replay = useMutation(
    trpc.dashboard.webhooks.replay.mutationOptions({
      onSuccess: async () => {
        await client.invalidateQueries({ queryKey: trpc.dashboard.webhooks.deliveries.pathKey() });
        await client.invalidateQueries({ queryKey: trpc.dashboard.events.deliveries.pathKey() });
      },
    }),
  );
  return (
    <div className="form-actions">
      <button
        type="button"
        className="button button-secondary"
        disabled={replay.isPending}
        aria-label={m.deliveries.replayLabel(id)}
        onClick={() => replay.mutate({ endpoint_id: endpointId, id })}
      >
        {m.deliveries.replay}
      </button>
      {replay.isSuccess && <span role="status">{m.deliveries.replayed}</span>}
      {replay.isError && <Notice tone="danger">{errorText(replay.error, shell, lang)}</Notice>}
    </div>
  );
}
