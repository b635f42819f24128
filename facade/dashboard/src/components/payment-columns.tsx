import { Link } from "wouter";
import { useFormat } from "../format/use-format.ts";
import { useMessages } from "../i18n/i18n.tsx";
import { label } from "../i18n/label.ts";
import { paymentMessages } from "../i18n/messages/payments.ts";
import type { RouterOutputs } from "../trpc.ts";
import type { Column } from "./DataTable.tsx";
import { PaymentStatus } from "./PaymentStatus.tsx";

export type PaymentRow = RouterOutputs["dashboard"]["payments"]["list"]["data"][number];

/** The columns a list of payments shows (this page, Home's recent payments, a link's payments). */
export function usePaymentColumns(): Column<PaymentRow>[] {
  const m = useMessages(paymentMessages);
  const format = useFormat();
  return [
    {
      key: "id",
      header: m.table.id,
      cell: (p) => (
        <Link href={`/payments/${p.id}`} className="mono">
          {p.id}
        </Link>
      ),
    },
    { key: "created", header: m.table.created, cell: (p) => <span className="nowrap">{format.dateTime(p.created_at)}</span> },
    { key: "amount", header: m.table.amount, align: "end", cell: (p) => format.money(p.amount, p.currency) },
    { key: "status", header: m.table.status, cell: (p) => <PaymentStatus status={p.status} /> },
    { key: "method", header: m.table.method, cell: (p) => label(m.methods, p.method_type) },
    {
      key: "customer",
      header: m.table.customer,
      cell: (p) => (
        <span className="cell-text">
          {p.customer_name && <span className="block">{p.customer_name}</span>}
          {p.customer_email && <span className="block muted">{p.customer_email}</span>}
        </span>
      ),
    },
    { key: "description", header: m.table.description, cell: (p) => <span className="cell-text">{p.description ?? ""}</span> },
  ];
}
