import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { qrCodeSvg } from "../../../src/pages/qr-svg.ts";
import { DataTable, useKeysetPages } from "../components/DataTable.tsx";
import { TextField } from "../components/Field.tsx";
import { KeysetTable } from "../components/KeysetTable.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { StatusBadge } from "../components/StatusBadge.tsx";
import { catalogCode, errorText } from "../errors.ts";
import { useFormat } from "../format/use-format.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { securityMessages } from "../i18n/messages/security.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { atLeast } from "../roles.ts";
import { useSession, useSessionChanged } from "../session.tsx";
import { useTRPC, type RouterOutputs } from "../trpc.ts";

type SessionRow = RouterOutputs["dashboard"]["security"]["sessions"]["data"][number];
type AuditRow = RouterOutputs["dashboard"]["security"]["auditLog"]["data"][number];

const AUDIT_PAGE = 25;

/** The user's sessions and "sign out everywhere", TOTP on/off, and (owners, admins) the audit log. */
export default function Security() {
  const m = useMessages(securityMessages);
  const { me } = useSession();
  return (
    <Page title={m.title}>
      <Sessions />
      <Totp />
      {atLeast(me.role, "admin") && <AuditLog />}
    </Page>
  );
}

function Sessions() {
  const m = useMessages(securityMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const format = useFormat();
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const changed = useSessionChanged();
  const sessions = useQuery(trpc.dashboard.security.sessions.queryOptions(undefined));
  const everywhere = useMutation(
    trpc.dashboard.security.signOutEverywhere.mutationOptions({
      onSuccess: async () => {
        await changed();
        navigate("/sign-in", { replace: true });
      },
    }),
  );
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">{m.sessions}</h2>
      {sessions.isPending ? (
        <Loading />
      ) : sessions.isError ? (
        <Notice tone="danger">{errorText(sessions.error, shell, lang)}</Notice>
      ) : (
        <DataTable<SessionRow>
          caption={m.sessions}
          hideCaption
          rows={sessions.data.data}
          rowKey={(row) => row.id}
          columns={[
            { key: "started", header: m.started, cell: (row) => format.dateTime(row.created_at) },
            { key: "seen", header: m.lastSeen, cell: (row) => format.dateTime(row.last_seen_at) },
            { key: "ip", header: m.address, cell: (row) => row.client_ip ?? "" },
            {
              key: "browser",
              header: m.browser,
              cell: (row) => (
                <>
                  {row.user_agent ?? ""} {row.current && <StatusBadge tone="info">{m.thisSession}</StatusBadge>}
                </>
              ),
            },
          ]}
        />
      )}
      {everywhere.isError && <Notice tone="danger">{errorText(everywhere.error, shell, lang)}</Notice>}
      <button type="button" className="button button-danger" disabled={everywhere.isPending} onClick={() => everywhere.mutate()}>
        {m.signOutEverywhere}
      </button>
    </section>
  );
}

function Totp() {
  const m = useMessages(securityMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const { me } = useSession();
  const trpc = useTRPC();
  const client = useQueryClient();
  const [code, setCode] = useState("");
  const [done, setDone] = useState<string>();
  const refreshMe = () => client.invalidateQueries({ queryKey: trpc.dashboard.auth.me.queryKey() });
  const start = useMutation(trpc.dashboard.security.totpStart.mutationOptions());
  const enable = useMutation(
    trpc.dashboard.security.totpEnable.mutationOptions({
      onSuccess: async () => {
        setDone(m.enabled);
        setCode("");
        start.reset();
        await refreshMe();
      },
    }),
  );
  const disable = useMutation(
    trpc.dashboard.security.totpDisable.mutationOptions({
      onSuccess: async () => {
        setDone(m.disabled);
        setCode("");
        await refreshMe();
      },
    }),
  );
  const failure = enable.error ?? disable.error ?? start.error;
  const failureText = failure && (catalogCode(failure) === "validation_error" ? m.badCode : errorText(failure, shell, lang));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(undefined);
    if (me.user.totp_enabled) disable.mutate({ code: code.trim() });
    else enable.mutate({ code: code.trim() });
  };
  const codeField = (hint?: string) => (
    <TextField
      label={m.code}
      hint={hint}
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={8}
      value={code}
      onChange={(e) => setCode(e.target.value)}
    />
  );
  return (
    <section className="panel" aria-labelledby="totp-title">
      <h2 id="totp-title">{m.totpTitle}</h2>
      {done && <Notice tone="success">{done}</Notice>}
      {failureText && <Notice tone="danger">{failureText}</Notice>}
      <p>{me.user.totp_enabled ? m.totpOn : m.totpOff}</p>
      {me.user.totp_enabled ? (
        <form onSubmit={submit} noValidate>
          {codeField(m.disableHint)}
          <button type="submit" className="button button-danger" disabled={disable.isPending}>
            {m.disable}
          </button>
        </form>
      ) : start.data ? (
        <form onSubmit={submit} noValidate>
          <p>{m.totpScan}</p>
          <img className="qr" alt={m.totpQrAlt} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrCodeSvg(start.data.otpauth_url))}`} />
          <p>
            {m.totpKey}: <code className="secret">{start.data.secret}</code>
          </p>
          {codeField()}
          <button type="submit" className="button button-primary" disabled={enable.isPending}>
            {m.enable}
          </button>
        </form>
      ) : (
        <button type="button" className="button button-primary" disabled={start.isPending} onClick={() => start.mutate()}>
          {m.totpStart}
        </button>
      )}
    </section>
  );
}

function AuditLog() {
  const m = useMessages(securityMessages);
  const shell = useMessages(shellMessages);
  const format = useFormat();
  const trpc = useTRPC();
  const pages = useKeysetPages();
  const log = useQuery(trpc.dashboard.security.auditLog.queryOptions({ limit: AUDIT_PAGE, ...(pages.cursor ? { starting_after: pages.cursor } : {}) }));
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">{m.audit}</h2>
      <KeysetTable<AuditRow>
        list={log}
        pages={pages}
        caption={m.audit}
        hideCaption
        columns={[
          { key: "when", header: m.when, cell: (row) => format.dateTime(row.created_at) },
          { key: "who", header: m.who, cell: (row) => row.user_email ?? "" },
          { key: "action", header: m.action, cell: (row) => row.action },
          { key: "object", header: m.object, cell: (row) => row.object_id ?? "" },
          { key: "mode", header: m.mode, cell: (row) => (row.mode ? shell.modes[row.mode] : "") },
          { key: "ip", header: m.address, cell: (row) => row.client_ip ?? "" },
        ]}
      />
    </section>
  );
}
