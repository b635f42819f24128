import { Link } from "wouter";
import { Page } from "../components/Page.tsx";
import { useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";

export default function NotFound() {
  const m = useMessages(shellMessages);
  return (
    <Page title={m.notFoundTitle}>
      <p>{m.notFound}</p>
      <p>
        <Link href="/">{m.backHome}</Link>
      </p>
    </Page>
  );
}
