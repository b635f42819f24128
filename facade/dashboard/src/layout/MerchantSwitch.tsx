import { useMutation } from "@tanstack/react-query";
import { useId } from "react";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";
import { errorText } from "../errors.ts";
import { useSession, useSessionChanged } from "../session.tsx";
import { useTRPC } from "../trpc.ts";

/** The selected merchant; a chooser when the user belongs to several (dashboard.auth.switchMerchant). */
export function MerchantSwitch() {
  const m = useMessages(shellMessages);
  const { lang } = useLang();
  const { me } = useSession();
  const trpc = useTRPC();
  const changed = useSessionChanged();
  const id = useId();
  const switchMerchant = useMutation(trpc.dashboard.auth.switchMerchant.mutationOptions({ onSuccess: (me) => changed(me) }));
  const current = me.memberships.find((membership) => membership.merchant_id === me.merchant_id);
  if (me.memberships.length < 2) {
    return (
      <span className="merchant">
        <span className="visually-hidden">{m.merchantLabel}: </span>
        {current?.merchant_name ?? me.merchant_id}
      </span>
    );
  }
  return (
    <span className="merchant">
      <label htmlFor={id} className="visually-hidden">
        {m.merchantLabel}
      </label>
      <select
        id={id}
        value={me.merchant_id}
        disabled={switchMerchant.isPending}
        onChange={(event) => switchMerchant.mutate({ merchant_id: event.target.value })}
      >
        {me.memberships.map((membership) => (
          <option key={membership.merchant_id} value={membership.merchant_id}>
            {membership.merchant_name}
          </option>
        ))}
      </select>
      {switchMerchant.isError && (
        <span className="field-error" role="alert">
          {errorText(switchMerchant.error, m, lang)}
        </span>
      )}
    </span>
  );
}
