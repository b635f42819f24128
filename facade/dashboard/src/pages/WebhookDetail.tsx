import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useLocation, useParams } from "wouter";
import { CopyButton } from "../components/CopyButton.tsx";
import { Fact, Facts } from "../components/Facts.tsx";
import { SelectField, TextField } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { StatusBadge } from "../components/StatusBadge.tsx";
import { errorText } from "../errors.ts";
import { useFormat } from "../format/use-format.ts";
import { zonedInstant } from "../format/zoned-time.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";
import { webhookMessages } from "../i18n/messages/webhooks.ts";
import { useSession } from "../session.tsx";
import { useTRPC, type RouterOutputs } from "../trpc.ts";
import "../styles/pages.css";
import { DeliveryList } from "./DeliveryList.tsx";
import { EventPicker } from "./EventPicker.tsx";
import { EVENT_TYPE_OPTIONS } from "./webhook-view.ts";

type Endpoint = RouterOutputs["dashboard"]["webhooks"]["get"];

/** One endpoint: its settings, secret (reveal, rotate), deletion, test events, and its deliveries with every attempt. */
export default function WebhookDetail() {
  const { id } = useParams<{ id: string }>();
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const endpoint = useQuery(trpc.dashboard.webhooks.get.queryOptions({ id }));
  return (
    <Page title={m.detail.title} actions={<Link href="/webhooks">{m.detail.back}</Link>}>
      {endpoint.isPending ? (
        <Loading />
      ) : endpoint.isError ? (
        <Notice tone="danger">{errorText(endpoint.error, shell, lang)}</Notice>
      ) : (
        <EndpointBody endpoint={endpoint.data} />
      )}
    </Page>
  );
}

function useRefreshEndpoints() {
  const trpc = useTRPC();
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: trpc.dashboard.webhooks.list.pathKey() });
    await client.invalidateQueries({ queryKey: trpc.dashboard.webhooks.get.pathKey() });
  };
}

function EndpointBody({ endpoint }: { endpoint: Endpoint }) {
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const format = useFormat();
  const trpc = useTRPC();
  const refresh = useRefreshEndpoints();
  const update = useMutation(trpc.dashboard.webhooks.update.mutationOptions({ onSuccess: refresh }));
  return (
    <>
      <section className="panel" aria-labelledby="endpoint-settings-heading">
        <h2 id="endpoint-settings-heading">{m.detail.url}</h2>
        <p className="mono" data-testid="endpoint-url">
          {endpoint.url}
        </p>
        <Facts>
          <Fact term={m.detail.events}>{endpoint.enabled_events.length === 0 ? m.allEvents : endpoint.enabled_events.join(", ")}</Fact>
          <Fact term={m.detail.state}>
            <StatusBadge tone={endpoint.enabled ? "success" : "neutral"}>{endpoint.enabled ? m.enabled : m.disabled}</StatusBadge>
          </Fact>
          {endpoint.disabled_reason && <Fact term={m.detail.disabledReason}>{endpoint.disabled_reason}</Fact>}
          <Fact term={m.detail.created}>{format.dateTime(endpoint.created_at)}</Fact>
        </Facts>
        {update.isError && <Notice tone="danger">{errorText(update.error, shell, lang)}</Notice>}
        <div className="form-actions">
          <button
            type="button"
            className="button button-secondary"
            disabled={update.isPending}
            onClick={() => update.mutate({ id: endpoint.id, enabled: !endpoint.enabled })}
          >
            {endpoint.enabled ? m.detail.disable : m.detail.enable}
          </button>
        </div>
      </section>
      <EditEvents endpoint={endpoint} />
      <Secret endpoint={endpoint} />
      {endpoint.enabled && <SendTestEvent endpointId={endpoint.id} />}
      <ReplayFailed endpointId={endpoint.id} />
      <DeliveryList endpointId={endpoint.id} />
      <DeleteEndpoint id={endpoint.id} />
    </>
  );
}

/** The endpoint's subscription: the same picker as creation (none checked = every type). */
function EditEvents({ endpoint }: { endpoint: Endpoint }) {
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const refresh = useRefreshEndpoints();
  const [events, setEvents] = useState<string[]>(endpoint.enabled_events);
  const save = useMutation(trpc.dashboard.webhooks.update.mutationOptions({ onSuccess: refresh }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ id: endpoint.id, enabled_events: events });
  };
  return (
    <section className="panel" aria-labelledby="endpoint-events-heading">
      <h2 id="endpoint-events-heading">{m.detail.editEvents}</h2>
      {save.isError && <Notice tone="danger">{errorText(save.error, shell, lang)}</Notice>}
      {save.isSuccess && <Notice tone="success">{m.detail.eventsSaved}</Notice>}
      <form onSubmit={submit}>
        <EventPicker legend={m.create.events} hint={m.create.eventsHint} selected={events} onChange={setEvents} />
        <div className="form-actions">
          <button type="submit" className="button button-secondary" disabled={save.isPending}>
            {m.detail.saveEvents}
          </button>
        </div>
      </form>
    </section>
  );
}

function Secret({ endpoint }: { endpoint: Endpoint }) {
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const format = useFormat();
  const trpc = useTRPC();
  const refresh = useRefreshEndpoints();
  const [shown, setShown] = useState<string | undefined>();
  const [asking, setAsking] = useState(false);
  const reveal = useMutation(trpc.dashboard.webhooks.revealSecret.mutationOptions({ onSuccess: (answer) => setShown(answer.secret) }));
  const rotate = useMutation(
    trpc.dashboard.webhooks.rotateSecret.mutationOptions({
      onSuccess: async (answer) => {
        setAsking(false);
        setShown(answer.secret);
        await refresh();
      },
    }),
  );
  const failed = reveal.error ?? rotate.error;
  return (
    <section className="panel" aria-labelledby="endpoint-secret-heading">
      <h2 id="endpoint-secret-heading">{m.detail.secret}</h2>
      {failed && <Notice tone="danger">{errorText(failed, shell, lang)}</Notice>}
      {rotate.data?.endpoint.previous_secret_expires_at ? (
        <Notice tone="success">{m.detail.rotated(format.dateTime(rotate.data.endpoint.previous_secret_expires_at))}</Notice>
      ) : (
        endpoint.previous_secret_expires_at && <p>{m.detail.overlap(format.dateTime(endpoint.previous_secret_expires_at))}</p>
      )}
      {shown !== undefined && (
        <p>
          <code className="secret" data-testid="endpoint-secret">
            {shown}
          </code>{" "}
          <CopyButton text={shown} label={m.detail.secret} />
        </p>
      )}
      <div className="form-actions">
        {shown === undefined ? (
          <button type="button" className="button button-secondary" disabled={reveal.isPending} onClick={() => reveal.mutate({ id: endpoint.id })}>
            {m.detail.reveal}
          </button>
        ) : (
          <button type="button" className="button button-secondary" onClick={() => setShown(undefined)}>
            {m.detail.hide}
          </button>
        )}
        {!asking && (
          <button type="button" className="button button-secondary" onClick={() => setAsking(true)}>
            {m.detail.rotate}
          </button>
        )}
      </div>
      {asking && (
        <div role="group" aria-label={m.detail.rotate}>
          <p>{m.detail.rotateConfirm}</p>
          <div className="form-actions">
            <button type="button" className="button button-primary" disabled={rotate.isPending} onClick={() => rotate.mutate({ id: endpoint.id })}>
              {m.detail.rotateYes}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setAsking(false)}>
              {m.detail.no}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

function SendTestEvent({ endpointId }: { endpointId: string }) {
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const client = useQueryClient();
  const [type, setType] = useState<string>(EVENT_TYPE_OPTIONS[0]!);
  const send = useMutation(
    trpc.dashboard.webhooks.sendTest.mutationOptions({
      onSuccess: () => client.invalidateQueries({ queryKey: trpc.dashboard.webhooks.deliveries.pathKey() }),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate({ endpoint_id: endpointId, type });
  };
  return (
    <section className="panel" aria-labelledby="test-event-heading">
      <h2 id="test-event-heading">{m.test.title}</h2>
      <p>{m.test.intro}</p>
      {send.isError && <Notice tone="danger">{errorText(send.error, shell, lang)}</Notice>}
      {send.data && <Notice tone="success">{m.test.sent(send.data.event_id)}</Notice>}
      <form onSubmit={submit}>
        <SelectField
          label={m.test.type}
          name="test_event_type"
          value={type}
          onChange={(e) => setType(e.target.value)}
          options={EVENT_TYPE_OPTIONS.map((t) => ({ value: t, label: t }))}
        />
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={send.isPending}>
            {m.test.submit}
          </button>
        </div>
      </form>
    </section>
  );
}

function ReplayFailed({ endpointId }: { endpointId: string }) {
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const { timeZone } = useSession();
  const trpc = useTRPC();
  const client = useQueryClient();
  const [day, setDay] = useState("");
  const [time, setTime] = useState("00:00");
  const [invalid, setInvalid] = useState(false);
  const replay = useMutation(
    trpc.dashboard.webhooks.replayFailed.mutationOptions({
      onSuccess: () => client.invalidateQueries({ queryKey: trpc.dashboard.webhooks.deliveries.pathKey() }),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const since = day === "" ? undefined : zonedInstant(day, time || "00:00", timeZone);
    setInvalid(since === undefined);
    if (since !== undefined) replay.mutate({ endpoint_id: endpointId, since });
  };
  return (
    <section className="panel" aria-labelledby="replay-failed-heading">
      <h2 id="replay-failed-heading">{m.replayFailed.title}</h2>
      {replay.isError && <Notice tone="danger">{errorText(replay.error, shell, lang)}</Notice>}
      {replay.data && (
        <Notice tone="success">{replay.data.has_more ? m.replayFailed.more(replay.data.replayed) : m.replayFailed.done(replay.data.replayed)}</Notice>
      )}
      <form onSubmit={submit} noValidate>
        <div className="field-row">
          <TextField
            label={m.replayFailed.since}
            name="since_day"
            type="date"
            value={day}
            onChange={(e) => setDay(e.target.value)}
            hint={m.replayFailed.hint(timeZone)}
            error={invalid ? m.replayFailed.invalid : undefined}
          />
          <TextField label={m.replayFailed.sinceTime} name="since_time" type="time" value={time} onChange={(e) => setTime(e.target.value)} />
        </div>
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={replay.isPending}>
            {m.replayFailed.submit}
          </button>
        </div>
      </form>
    </section>
  );
}

function DeleteEndpoint({ id }: { id: string }) {
  const m = useMessages(webhookMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [asking, setAsking] = useState(false);
  const remove = useMutation(
    trpc.dashboard.webhooks.delete.mutationOptions({
      onSuccess: async () => {
        // Not the endpoint's own query: it is gone, and this page is left.
        await client.invalidateQueries({ queryKey: trpc.dashboard.webhooks.list.pathKey() });
        navigate("/webhooks");
      },
    }),
  );
  return (
    <div className="danger-zone">
      {remove.isError && <Notice tone="danger">{errorText(remove.error, shell, lang)}</Notice>}
      {asking ? (
        <div role="group" aria-label={m.detail.delete}>
          <p>{m.detail.deleteConfirm}</p>
          <div className="form-actions">
            <button type="button" className="button button-danger" disabled={remove.isPending} onClick={() => remove.mutate({ id })}>
              {m.detail.deleteYes}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setAsking(false)}>
              {m.detail.no}
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="button button-danger" onClick={() => setAsking(true)}>
          {m.detail.delete}
        </button>
      )}
    </div>
  );
}
