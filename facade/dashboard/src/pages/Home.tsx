import { Page } from "../components/Page.tsx";
import { useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";
import { useSession } from "../session.tsx";

/** The landing page after sign-in; its content (balances, volume chart, recent payments) is written on top of the shell. */
export default function Home() {
  const m = useMessages(shellMessages);
  const { me } = useSession();
  const merchant = me.memberships.find((membership) => membership.merchant_id === me.merchant_id);
  return (
    <Page title={m.nav.home}>
      <p>{merchant?.merchant_name ?? me.merchant_id}</p>
    </Page>
  );
}
