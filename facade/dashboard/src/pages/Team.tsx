import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { CopyButton } from "../components/CopyButton.tsx";
import { DataTable } from "../components/DataTable.tsx";
import { SelectField, TextField } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { StatusBadge } from "../components/StatusBadge.tsx";
import { errorText } from "../errors.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";
import { teamMessages } from "../i18n/messages/team.ts";
import { atLeast, ROLES, type Role } from "../roles.ts";
import { useSession } from "../session.tsx";
import { useTRPC, type RouterOutputs } from "../trpc.ts";

type Member = RouterOutputs["dashboard"]["team"]["members"]["data"][number];

/** Which roles `actor` may hand out or take away (DESIGN §5): owners every role, admins every role but owner. */
function manageable(actor: string): readonly Role[] {
  if (actor === "owner") return ROLES;
  if (actor === "admin") return ROLES.filter((role) => role !== "owner");
  return [];
}

/** Members and roles; owners and admins invite (the URL shown once), change roles and remove. */
export default function Team() {
  const m = useMessages(teamMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const { me } = useSession();
  const trpc = useTRPC();
  const client = useQueryClient();
  const members = useQuery(trpc.dashboard.team.members.queryOptions(undefined));
  const refresh = () => client.invalidateQueries({ queryKey: trpc.dashboard.team.members.queryKey() });
  const [notice, setNotice] = useState<string>();
  const changeRole = useMutation(trpc.dashboard.team.changeRole.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(trpc.dashboard.team.remove.mutationOptions({ onSettled: refresh }));
  const roles = manageable(me.role);
  const roleOptions = (current: string) =>
    ROLES.filter((role) => role === current || roles.includes(role)).map((role) => ({ value: role, label: shell.roles[role] }));
  const canManage = (member: Member) => member.user_id !== me.user.id && roles.includes(member.role);
  const failure = changeRole.error ?? remove.error;

  return (
    <Page title={m.title}>
      {notice && <Notice tone="success">{notice}</Notice>}
      {failure && <Notice tone="danger">{errorText(failure, shell, lang)}</Notice>}
      {members.isPending ? (
        <Loading />
      ) : members.isError ? (
        <Notice tone="danger">{errorText(members.error, shell, lang)}</Notice>
      ) : (
        <DataTable<Member>
          caption={m.members}
          rows={members.data.data}
          rowKey={(member) => member.user_id}
          columns={[
            {
              key: "email",
              header: m.email,
              cell: (member) => (
                <>
                  {member.user_id === me.user.id ? `${member.email} (${m.you})` : member.email}{" "}
                  {member.status === "invited" && <StatusBadge tone="warning">{m.invited}</StatusBadge>}
                </>
              ),
            },
            {
              key: "role",
              header: m.role,
              cell: (member) =>
                canManage(member) ? (
                  <select
                    aria-label={m.changeRole(member.email)}
                    value={member.role}
                    disabled={changeRole.isPending}
                    onChange={(event) =>
                      changeRole.mutate(
                        { user_id: member.user_id, role: event.target.value as Role },
                        { onSuccess: () => setNotice(m.roleChanged(member.email)) },
                      )
                    }
                  >
                    {roleOptions(member.role).map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </select>
                ) : (
                  (shell.roles[member.role] ?? member.role)
                ),
            },
            ...(roles.length > 0
              ? [
                  {
                    key: "actions",
                    header: m.actions,
                    cell: (member: Member) =>
                      canManage(member) ? (
                        <button
                          type="button"
                          className="button button-danger"
                          aria-label={m.removeLabel(member.email)}
                          disabled={remove.isPending}
                          onClick={() => {
                            if (window.confirm(m.confirmRemove(member.email))) {
                              remove.mutate({ user_id: member.user_id }, { onSuccess: () => setNotice(m.removed(member.email)) });
                            }
                          }}
                        >
                          {m.remove}
                        </button>
                      ) : null,
                  },
                ]
              : []),
          ]}
        />
      )}
      {atLeast(me.role, "admin") && <InviteForm roles={roles} onInvited={refresh} />}
    </Page>
  );
}

function InviteForm({ roles, onInvited }: { roles: readonly Role[]; onInvited: () => Promise<void> }) {
  const m = useMessages(teamMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("viewer");
  const [emailError, setEmailError] = useState<string>();
  const invite = useMutation(trpc.dashboard.team.invite.mutationOptions({ onSuccess: onInvited }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return setEmailError(m.emailRequired);
    setEmailError(undefined);
    invite.mutate({ email: email.trim(), role });
  };
  return (
    <section className="panel" aria-labelledby="invite-title">
      <h2 id="invite-title">{m.inviteTitle}</h2>
      {invite.isSuccess && (
        <Notice tone="success">
          <p>{m.inviteCreated(invite.data.email)}</p>
          <TextField label={m.inviteUrl} name="invite_url" readOnly value={invite.data.invite_url} onFocus={(e) => e.target.select()} />
          <CopyButton text={invite.data.invite_url} label={m.inviteUrl} />
        </Notice>
      )}
      {invite.isError && <Notice tone="danger">{errorText(invite.error, shell, lang)}</Notice>}
      <form onSubmit={submit} noValidate>
        <TextField label={m.email} name="email" type="email" autoComplete="off" error={emailError} value={email} onChange={(e) => setEmail(e.target.value)} />
        <SelectField
          label={m.inviteRole}
          name="role"
          value={role}
          onChange={(e) => setRole(e.target.value as Role)}
          options={roles.map((r) => ({ value: r, label: shell.roles[r] }))}
        />
        <button type="submit" className="button button-primary" disabled={invite.isPending}>
          {m.invite}
        </button>
      </form>
    </section>
  );
}
