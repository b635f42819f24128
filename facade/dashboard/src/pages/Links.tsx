import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { useKeysetPages } from "../components/DataTable.tsx";
import { KeysetTable } from "../components/KeysetTable.tsx";
import { Page } from "../components/Page.tsx";
import { StatusBadge } from "../components/StatusBadge.tsx";
import { useFormat } from "../format/use-format.ts";
import { useMessages } from "../i18n/i18n.tsx";
import { label } from "../i18n/label.ts";
import { linkMessages } from "../i18n/messages/links.ts";
import { atLeast } from "../roles.ts";
import { useSession } from "../session.tsx";
import { useTRPC } from "../trpc.ts";
import "../styles/pages.css";
import { linkAmount, linkState } from "./link-view.ts";

/** The merchant's payment links with their state and succeeded payments; "Create link" for roles that may. */
export default function Links() {
  const m = useMessages(linkMessages);
  const { me } = useSession();
  const format = useFormat();
  const trpc = useTRPC();
  const pages = useKeysetPages();
  const list = useQuery(trpc.dashboard.links.list.queryOptions({ starting_after: pages.cursor }));
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
      <KeysetTable
        list={list}
        pages={pages}
        caption={m.table.caption}
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
    </Page>
  );
}
