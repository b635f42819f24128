import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import { useLocation, useParams } from "wouter";
import { Loading } from "../components/Page.tsx";
import { Notice } from "../components/Notice.tsx";
import { catalogCode, errorText } from "../errors.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { authMessages } from "../i18n/messages/auth.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { PublicFrame } from "../layout/PublicFrame.tsx";
import { useSessionChanged } from "../session.tsx";
import { useTRPC } from "../trpc.ts";
import { ChoosePassword } from "../components/ChoosePassword.tsx";
import { TextField } from "../components/Field.tsx";

/** /dashboard/invite/:token — who is invited where, then a password of at least 12 characters, and in. */
export default function Invite() {
  const m = useMessages(authMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const { token = "" } = useParams<{ token: string }>();
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const changed = useSessionChanged();
  const info = useQuery({ ...trpc.dashboard.auth.inviteInfo.queryOptions({ token }), retry: false });
  const accept = useMutation(
    trpc.dashboard.auth.acceptInvite.mutationOptions({
      onSuccess: async () => {
        await changed();
        navigate("/", { replace: true });
      },
    }),
  );
  const refused = (error: unknown) => {
    const code = catalogCode(error);
    return code === "unauthorized" || code === "validation_error" ? m.badToken : errorText(error, shell, lang);
  };
  return (
    <PublicFrame title={m.inviteTitle}>
      {info.isPending ? (
        <Loading />
      ) : info.isError ? (
        <Notice tone="danger">{refused(info.error)}</Notice>
      ) : (
        <>
          <p>{m.invitedAs(info.data.email, info.data.merchant_name, shell.roles[info.data.role] ?? info.data.role)}</p>
          {info.data.choose_password ? (
            <ChoosePassword
              submitLabel={m.accept}
              pending={accept.isPending}
              failure={accept.isError ? <Notice tone="danger">{refused(accept.error)}</Notice> : null}
              onSubmit={(password) => accept.mutate({ token, password })}
            />
          ) : (
            <ExistingAccount
              pending={accept.isPending}
              failure={
                accept.isError ? <Notice tone="danger">{catalogCode(accept.error) === "unauthorized" ? m.wrongPassword : refused(accept.error)}</Notice> : null
              }
              onSubmit={(password) => accept.mutate({ token, password })}
            />
          )}
        </>
      )}
    </PublicFrame>
  );
}

/** Someone already on Paytami (another merchant's member) joins with the password they have. */
function ExistingAccount({ pending, failure, onSubmit }: { pending: boolean; failure: ReactNode; onSubmit: (password: string) => void }) {
  const m = useMessages(authMessages);
  const [password, setPassword] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password) onSubmit(password);
  };
  return (
    <form onSubmit={submit} noValidate>
      <p>{m.existingAccount}</p>
      {failure}
      <TextField
        label={m.password}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <button type="submit" className="button button-primary" disabled={pending}>
        {m.accept}
      </button>
    </form>
  );
}
