import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { TextField } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { catalogCode, errorText } from "../errors.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { authMessages } from "../i18n/messages/auth.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { PublicFrame } from "../layout/PublicFrame.tsx";
import { useSessionChanged } from "../session.tsx";
import { useTRPC } from "../trpc.ts";

/**
 * E-mail, password and the optional TOTP code. Every refusal of the credentials reads the same (the
 * core answers an unknown e-mail and a wrong password alike); a throttled account says how long to wait.
 */
export default function SignIn() {
  const m = useMessages(authMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const changed = useSessionChanged();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [totp, setTotp] = useState("");
  const [missing, setMissing] = useState(false);
  const signIn = useMutation(
    trpc.dashboard.auth.signIn.mutationOptions({
      onSuccess: async () => {
        await changed();
        navigate("/", { replace: true });
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !password) return setMissing(true);
    setMissing(false);
    signIn.mutate({ email: email.trim(), password, ...(totp.trim() ? { totp: totp.trim() } : {}) });
  };
  const code = catalogCode(signIn.error);
  const failure = signIn.isError
    ? code === "unauthorized" || code === "validation_error"
      ? m.badCredentials
      : errorText(signIn.error, shell, lang)
    : undefined;
  return (
    <PublicFrame title={m.signInTitle}>
      <form onSubmit={submit} noValidate aria-describedby={failure ? "sign-in-error" : undefined}>
        {(failure || missing) && (
          <div id="sign-in-error">
            <Notice tone="danger">{failure ?? m.missing}</Notice>
          </div>
        )}
        {/* The page is a form and nothing else: the cursor starts in it, so the keyboard alone signs in. */}
        <TextField
          label={m.email}
          name="email"
          type="email"
          autoComplete="username"
          autoFocus
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label={m.password}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <TextField
          label={m.totp}
          hint={m.totpHint}
          name="totp"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={8}
          value={totp}
          onChange={(e) => setTotp(e.target.value)}
        />
        <button type="submit" className="button button-primary" disabled={signIn.isPending}>
          {signIn.isPending ? m.signingIn : m.signIn}
        </button>
      </form>
    </PublicFrame>
  );
}
