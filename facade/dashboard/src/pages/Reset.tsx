import { useMutation } from "@tanstack/react-query";
import { useLocation, useParams } from "wouter";
import { Notice } from "../components/Notice.tsx";
import { catalogCode, errorText } from "../errors.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { authMessages } from "../i18n/messages/auth.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { PublicFrame } from "../layout/PublicFrame.tsx";
import { useSessionChanged } from "../session.tsx";
import { useTRPC } from "../trpc.ts";
import { ChoosePassword } from "../components/ChoosePassword.tsx";

/** /dashboard/reset/:token — a new password (the core ends every other session of the user), and in. */
export default function Reset() {
  const m = useMessages(authMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const { token = "" } = useParams<{ token: string }>();
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const changed = useSessionChanged();
  const reset = useMutation(
    trpc.dashboard.auth.resetPassword.mutationOptions({
      onSuccess: async () => {
        await changed();
        navigate("/", { replace: true });
      },
    }),
  );
  const code = catalogCode(reset.error);
  const failure = reset.isError ? (code === "unauthorized" || code === "validation_error" ? m.badToken : errorText(reset.error, shell, lang)) : undefined;
  return (
    <PublicFrame title={m.resetTitle}>
      <p>{m.resetIntro}</p>
      <ChoosePassword
        submitLabel={m.save}
        pending={reset.isPending}
        failure={failure ? <Notice tone="danger">{failure}</Notice> : null}
        onSubmit={(password) => reset.mutate({ token, password })}
      />
    </PublicFrame>
  );
}
