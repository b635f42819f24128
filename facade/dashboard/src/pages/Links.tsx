import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { DataTable, useKeysetPages } from "../components/DataTable.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { StatusBadge } from "../components/StatusBadge.tsx";
import { errorText } from "../errors.ts";
import { useFormat } from "../format/use-format.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { label } from "../i18n/label.ts";
import { linkMessages } from "../i18n/messages/links.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { atLeast } from "../roles.ts";
import { useSession } from "../session.tsx";
import { useTRPC } from "../trpc.ts";
import "../styles/pages.css";
import { linkAmount, linkState } from "./link-view.ts";

/** The merchant's payment links with their state and succeeded payments; "Create link" for roles that may. */
export default function Links() {
  const m = useMessages(linkMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const { me } = useSession();
  const format = useFormat();
  const trpc = useTRPC();
  const pages = useKeysetPages();
  const list = useQuery(trpc.dashboard.links.list.queryOptions({ starting_after: pages.cursor }));
  const rows = list.data?.data ?? [];
  return (
    <Page
      title={m.title}
      actions={
        atLeast(me.role, "admin") && (
          <Link href="/links/new" className="button button-primary">
            {m.create}
          </Link>
        )
      }
    >
      {list.isError && <Notice tone="danger">{errorText(list.error, shell, lang)}</Notice>}
      {list.isPending ? (
        <Loading />
      ) : (
        <DataTable
          caption={m.table.caption}
          rows={rows}
          rowKey={(l) => l.id}
          paging={pages.paging(list.data?.has_more ?? false, rows.at(-1)?.id)}
          columns={[
            { key: "title", header: m.table.title, cell: (l) => <Link href={`/links/${l.id}`}>{l.title}</Link> },
            { key: "amount", header: m.table.amount, align: "end", cell: (l) => linkAmount(l, format.money, m.variable) },
            {
              key: "state",
              header: m.table.state,
              cell: (l) => <StatusBadge tone={l.payable ? "success" : "neutral"}>{label(m.states, linkState(l))}</StatusBadge>,
            },
            { key: "succeeded", header: m.table.succeeded, align: "end", cell: (l) => m.succeededOf(l.succeeded_payments, l.max_payments) },
            { key: "created", header: m.table.created, cell: (l) => format.dateTime(l.created_at) },
          ]}
        />
      )}
    </Page>
  );
}
