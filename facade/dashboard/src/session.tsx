import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, type ReactNode } from "react";
import { DEFAULT_TIME_ZONE } from "./format/time.ts";
import { useLang } from "./i18n/i18n.tsx";
import { httpStatusOf, useTRPC, type RouterOutputs } from "./trpc.ts";

export type Me = RouterOutputs["dashboard"]["auth"]["me"];

/** The signed-in user, their memberships and the merchant, mode and role the session has selected. */
export interface Session {
  me: Me;
  /** The selected merchant's time zone for every time shown (DESIGN §5: America/Guatemala unless it has its own). */
  timeZone: string;
}

const SessionContext = createContext<Session | undefined>(undefined);

/** The session of the pages inside <RequireSession> (routes.tsx's session routes). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession() outside <SessionProvider>");
  return session;
}

export function SessionProvider({ me, children }: { me: Me; children: ReactNode }) {
  const timeZone = me.time_zone || DEFAULT_TIME_ZONE;
  const { adoptDefault } = useLang();
  useEffect(() => adoptDefault(me.default_language), [adoptDefault, me.default_language]);
  return <SessionContext value={{ me, timeZone }}>{children}</SessionContext>;
}

/** `dashboard.auth.me` as a query; `signedOut` when there is no (longer a) session. */
export function useMe() {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.dashboard.auth.me.queryOptions(undefined), retry: (n, error) => n < 2 && httpStatusOf(error) >= 500 });
  const status = httpStatusOf(query.error);
  return { ...query, signedOut: query.isError && (status === 401 || status === 403) };
}

/**
 * After anything that changes who or where the session is. Every cached answer belonged to the old
 * merchant or mode, so all of it is reset (not just invalidated: nothing of the old one may show
 * while the new answers load). A switch passes the new `me` it got back, which takes `me`'s place
 * at once, so the layout stays while the page reloads its data.
 */
export function useSessionChanged(): (me?: Me) => Promise<void> {
  const client = useQueryClient();
  const trpc = useTRPC();
  return async (me) => {
    if (!me) return client.resetQueries();
    const meKey = trpc.dashboard.auth.me.queryKey();
    client.setQueryData(meKey, me);
    await client.resetQueries({ predicate: (query) => JSON.stringify(query.queryKey[0]) !== JSON.stringify(meKey[0]) });
  };
}

export function useSignOut() {
  const trpc = useTRPC();
  const changed = useSessionChanged();
  return useMutation(trpc.dashboard.auth.signOut.mutationOptions({ onSettled: () => changed() }));
}
