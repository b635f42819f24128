import { useMutation } from "@tanstack/react-query";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";
import { errorText } from "../errors.ts";
import { useSession, useSessionChanged } from "../session.tsx";
import { useTRPC } from "../trpc.ts";

const MODES = ["test", "live"] as const;

/** Test or live for the whole session (dashboard.auth.switchMode); remembered per user by the core. */
export function ModeSwitch() {
  const m = useMessages(shellMessages);
  const { lang } = useLang();
  const { me } = useSession();
  const trpc = useTRPC();
  const changed = useSessionChanged();
  const switchMode = useMutation(trpc.dashboard.auth.switchMode.mutationOptions({ onSuccess: (me) => changed(me) }));
  return (
    <div className="mode-switch" role="group" aria-label={m.modeLabel}>
      {MODES.map((mode) => (
        <button
          key={mode}
          type="button"
          className={`mode mode-${mode}`}
          aria-pressed={me.mode === mode}
          disabled={switchMode.isPending}
          onClick={() => me.mode !== mode && switchMode.mutate({ mode })}
        >
          {m.modes[mode]}
        </button>
      ))}
      {switchMode.isError && (
        <span className="field-error" role="alert">
          {errorText(switchMode.error, m, lang)}
        </span>
      )}
    </div>
  );
}
