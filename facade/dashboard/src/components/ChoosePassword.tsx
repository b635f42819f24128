import { useState, type FormEvent, type ReactNode } from "react";
import { TextField } from "./Field.tsx";
import { useMessages } from "../i18n/i18n.tsx";
import { authMessages } from "../i18n/messages/auth.ts";

/** DESIGN §5: a dashboard password has at least 12 characters. */
export const MIN_PASSWORD_LENGTH = 12;

/** The new-password form of the invite and reset pages: checked here first, then by the core. */
export function ChoosePassword({
  submitLabel,
  pending,
  failure,
  onSubmit,
}: {
  submitLabel: string;
  pending: boolean;
  failure: ReactNode;
  onSubmit: (password: string) => void;
}) {
  const m = useMessages(authMessages);
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      password: [...password].length < MIN_PASSWORD_LENGTH ? m.tooShort : undefined,
      confirm: password !== confirm ? m.mismatch : undefined,
    };
    setErrors(next);
    if (next.password) return document.getElementById("new-password")?.focus();
    if (next.confirm) return document.getElementById("confirm-password")?.focus();
    onSubmit(password);
  };
  return (
    <form onSubmit={submit} noValidate>
      {failure}
      <TextField
        id="new-password"
        label={m.newPassword}
        hint={m.passwordHint}
        error={errors.password}
        name="new-password"
        type="password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <TextField
        id="confirm-password"
        label={m.confirmPassword}
        error={errors.confirm}
        name="confirm-password"
        type="password"
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
      />
      <button type="submit" className="button button-primary" disabled={pending}>
        {submitLabel}
      </button>
    </form>
  );
}
