import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "wouter";
import { Fact, Facts } from "../components/Facts.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { StatusBadge } from "../components/StatusBadge.tsx";
import { errorText } from "../errors.ts";
import { useFormat } from "../format/use-format.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { requestLogMessages } from "../i18n/messages/request-logs.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { useTRPC, type RouterOutputs } from "../trpc.ts";
import "../styles/pages.css";
import "../styles/request-logs.css";
import { prettyBody, statusTone } from "./request-log-view.ts";

type Detail = RouterOutputs["dashboard"]["requestLogs"]["get"];

/** One logged request: what it was, how it was answered, and both bodies as stored (redacted), as plain text. */
export default function RequestLogDetail() {
  const { id } = useParams<{ id: string }>();
  const m = useMessages(requestLogMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const log = useQuery(trpc.dashboard.requestLogs.get.queryOptions({ id }));
  return (
    <Page title={log.data ? m.detail.title(log.data.method, log.data.path) : m.title} actions={<Link href="/request-logs">{m.detail.back}</Link>}>
      {log.isPending ? <Loading /> : log.isError ? <Notice tone="danger">{errorText(log.error, shell, lang)}</Notice> : <DetailBody log={log.data} />}
    </Page>
  );
}

function DetailBody({ log }: { log: Detail }) {
  const m = useMessages(requestLogMessages);
  const format = useFormat();
  const none = m.detail.none;
  return (
    <>
      <section className="panel" aria-labelledby="log-summary-heading">
        <h2 id="log-summary-heading">{m.detail.summary}</h2>
        <Facts>
          <Fact term={m.detail.time}>{format.dateTime(log.created_at)}</Fact>
          <Fact term={m.detail.status}>
            <StatusBadge tone={statusTone(log.status)}>{log.status}</StatusBadge>
          </Fact>
          <Fact term={m.detail.code}>{log.code ?? none}</Fact>
          <Fact term={m.detail.latency}>{m.ms(log.latency_ms)}</Fact>
          <Fact term={m.detail.requestId}>
            <span className="mono" data-testid="log-request-id">
              {log.request_id}
            </span>
          </Fact>
          <Fact term={m.detail.key}>
            <span className="mono">{log.api_key_id}</span>
          </Fact>
          <Fact term={m.detail.idempotencyKey}>{log.idempotency_key ? <span className="mono">{log.idempotency_key}</span> : none}</Fact>
          <Fact term={m.detail.replayed}>{log.replayed ? m.detail.yes : m.detail.no}</Fact>
          <Fact term={m.detail.clientIp}>{log.client_ip ?? none}</Fact>
        </Facts>
      </section>
      <Body heading={m.detail.requestBody} id="log-request-body" body={log.request_body} />
      <Body heading={m.detail.responseBody} id="log-response-body" body={log.response_body} />
    </>
  );
}

/** A body as text: React escapes it, so whatever a client sent stays inert. */
function Body({ heading, id, body }: { heading: string; id: string; body: string | null }) {
  const m = useMessages(requestLogMessages);
  return (
    <section className="panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{heading}</h2>
      {body === null ? (
        <p className="muted">{m.detail.noBody}</p>
      ) : (
        // Focusable so a keyboard user can scroll a long body.
        <pre className="json-body" tabIndex={0} data-testid={id} aria-labelledby={`${id}-heading`}>
          {prettyBody(body)}
        </pre>
      )}
    </section>
  );
}
