import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { CopyButton } from "../components/CopyButton.tsx";
import { DataTable } from "../components/DataTable.tsx";
import { SelectField } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { StatusBadge, type Tone } from "../components/StatusBadge.tsx";
import { errorText } from "../errors.ts";
import { useFormat } from "../format/use-format.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { apiKeysMessages } from "../i18n/messages/api-keys.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { useTRPC, type RouterOutputs } from "../trpc.ts";
import "../styles/pages.css";

type ApiKey = RouterOutputs["dashboard"]["apiKeys"]["list"]["data"][number];

const STATUS_TONES: Record<ApiKey["status"], Tone> = { active: "success", expired: "neutral", revoked: "danger" };

/** The old key's remaining life a roll may choose (the core allows any time up to API_KEY_ROLL_MAX, 7 days). */
const ROLL_CHOICES = [
  ["now", 0],
  ["1h", 3600],
  ["24h", 86_400],
  ["3d", 3 * 86_400],
  ["7d", 7 * 86_400],
] as const;
type RollChoice = (typeof ROLL_CHOICES)[number][0];

/** A secret to show once: the new key, and when a roll's old key stops. */
interface Shown {
  title: string;
  secret: string;
  oldExpiresAt?: string;
}

/** The merchant's keys of the session's mode: create (the secret shown once), roll and revoke. */
export default function ApiKeys() {
  const m = useMessages(apiKeysMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const format = useFormat();
  const trpc = useTRPC();
  const client = useQueryClient();
  const keys = useQuery(trpc.dashboard.apiKeys.list.queryOptions(undefined));
  const refresh = () => client.invalidateQueries({ queryKey: trpc.dashboard.apiKeys.list.queryKey() });
  const create = useMutation(trpc.dashboard.apiKeys.create.mutationOptions({ onSettled: refresh }));
  const revoke = useMutation(trpc.dashboard.apiKeys.revoke.mutationOptions({ onSettled: refresh }));
  const [notice, setNotice] = useState<string>();
  const [shown, setShown] = useState<Shown>();
  const [rolling, setRolling] = useState<ApiKey>();
  const failure = create.error ?? revoke.error;

  const onCreate = () => {
    setNotice(undefined);
    create.mutate(undefined, {
      onSuccess: (key) => {
        setShown({ title: m.createdTitle, secret: key.api_key });
        // Nothing keeps the secret once its dialog closes: not even the mutation's cache.
        create.reset();
      },
    });
  };

  return (
    <Page
      title={m.title}
      actions={
        <button type="button" className="button button-primary" disabled={create.isPending} onClick={onCreate}>
          {m.create}
        </button>
      }
    >
      <p>{m.intro}</p>
      {notice && <Notice tone="success">{notice}</Notice>}
      {failure && <Notice tone="danger">{errorText(failure, shell, lang)}</Notice>}
      {keys.isPending ? (
        <Loading />
      ) : keys.isError ? (
        <Notice tone="danger">{errorText(keys.error, shell, lang)}</Notice>
      ) : (
        <DataTable<ApiKey>
          caption={m.keys}
          rows={keys.data.data}
          rowKey={(key) => key.id}
          empty={m.empty}
          columns={[
            { key: "key", header: m.key, cell: (key) => <code className="nowrap">{`sk_${key.mode}_…${key.last4}`}</code> },
            { key: "status", header: m.status, cell: (key) => <StatusBadge tone={STATUS_TONES[key.status]}>{m.statuses[key.status]}</StatusBadge> },
            { key: "created", header: m.created, cell: (key) => <span className="nowrap">{format.dateTime(key.created_at)}</span> },
            {
              key: "last_used",
              header: m.lastUsed,
              cell: (key) => <span className="nowrap">{key.last_used_at ? format.dateTime(key.last_used_at) : m.never}</span>,
            },
            {
              key: "expires",
              header: m.expires,
              cell: (key) => <span className="nowrap">{key.expires_at ? format.dateTime(key.expires_at) : key.revoked_at ? "—" : m.noExpiry}</span>,
            },
            {
              key: "actions",
              header: m.actions,
              cell: (key) =>
                key.status === "active" ? (
                  <span className="actions-cell nowrap">
                    <button type="button" className="button button-secondary" aria-label={m.rollLabel(key.last4)} onClick={() => setRolling(key)}>
                      {m.roll}
                    </button>
                    <button
                      type="button"
                      className="button button-danger"
                      aria-label={m.revokeLabel(key.last4)}
                      disabled={revoke.isPending}
                      onClick={() => {
                        if (window.confirm(m.confirmRevoke(key.last4))) {
                          revoke.mutate({ id: key.id }, { onSuccess: () => setNotice(m.revoked(key.last4)) });
                        }
                      }}
                    >
                      {m.revoke}
                    </button>
                  </span>
                ) : null,
            },
          ]}
        />
      )}
      {rolling && (
        <RollDialog
          apiKey={rolling}
          onClose={() => setRolling(undefined)}
          onRolled={(rolled) => {
            setRolling(undefined);
            setShown({ title: m.rolledTitle, secret: rolled.new_key.api_key, oldExpiresAt: rolled.expires_at });
            void refresh();
          }}
        />
      )}
      {shown && <SecretDialog shown={shown} onClose={() => setShown(undefined)} />}
    </Page>
  );
}

/** A modal dialog (the browser's own: focus stays inside, Escape closes it). */
function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    dialog?.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

function SecretDialog({ shown, onClose }: { shown: Shown; onClose: () => void }) {
  const m = useMessages(apiKeysMessages);
  const format = useFormat();
  return (
    <Dialog title={shown.title} onClose={onClose}>
      <>
        <Notice tone="warning">{m.secretOnce}</Notice>
        <p>
          {m.secretLabel}:{" "}
          <code className="secret" data-testid="api-key-secret">
            {shown.secret}
          </code>
        </p>
        <CopyButton text={shown.secret} label={m.secretLabel} />
        {shown.oldExpiresAt && <p>{m.oldExpires(format.dateTime(shown.oldExpiresAt))}</p>}
        <div className="dialog-actions">
          <button type="button" className="button button-primary" onClick={onClose}>
            {m.done}
          </button>
        </div>
      </>
    </Dialog>
  );
}

type Rolled = RouterOutputs["dashboard"]["apiKeys"]["roll"];

function RollDialog({ apiKey, onClose, onRolled }: { apiKey: ApiKey; onClose: () => void; onRolled: (rolled: Rolled) => void }) {
  const m = useMessages(apiKeysMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const [choice, setChoice] = useState<RollChoice>("24h");
  const roll = useMutation(trpc.dashboard.apiKeys.roll.mutationOptions());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const seconds = ROLL_CHOICES.find(([name]) => name === choice)![1];
    roll.mutate({ id: apiKey.id, expires_in_seconds: seconds }, { onSuccess: onRolled });
  };
  return (
    <Dialog title={m.rollTitle(apiKey.last4)} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p>{m.rollIntro}</p>
        {roll.isError && <Notice tone="danger">{errorText(roll.error, shell, lang)}</Notice>}
        <SelectField
          label={m.rollWhen}
          name="expires_in"
          value={choice}
          onChange={(event) => setChoice(event.target.value as RollChoice)}
          options={ROLL_CHOICES.map(([name]) => ({ value: name, label: m.rollChoices[name] }))}
        />
        <div className="dialog-actions">
          <button type="submit" className="button button-primary" disabled={roll.isPending}>
            {m.rollSubmit}
          </button>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {m.cancel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
