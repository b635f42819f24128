// Everything the dashboard's payment page shows about one payment, in one answer: the Payment object
// (spec 2.1) with its fee and net, the times of its states, customer, refunds, the events it raised
// with their deliveries, and its ledger transactions.
import { moneyView, type MoneyView } from "../../../proto/format-money.ts";
import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { isId } from "./ids.ts";
import { getPaymentLedger, type LedgerTransactionView } from "./ledger-views.ts";
import { paymentEvents, type PaymentEvent } from "./payment-events.ts";
import { PAYMENT_VIEW_COLUMNS, toPaymentView, type PaymentView } from "./payment-view.ts";
import { REFUND_COLUMNS, toRefundView, type RefundView } from "./refunds/view.ts";
import type { Tx } from "./unit-of-work.ts";

/** Each state the payment has been in that stamps a time, as the timeline names it. */
const TIMELINE = [
  ["created", "created_at"],
  ["processing", "processing_at"],
  ["authorized", "authorized_at"],
  ["succeeded", "captured_at"],
  ["failed", "failed_at"],
  ["canceled", "canceled_at"],
  ["expired", "expired_at"],
  ["pending_settlement", "pending_settlement_at"],
  ["settled_to_paytami", "settled_to_paytami_at"],
  ["available_to_merchant", "available_to_merchant_at"],
  ["refunded", "refunded_at"],
  ["chargeback_opened", "chargeback_opened_at"],
  ["chargeback_won", "chargeback_won_at"],
] as const;

type TimelineColumn = (typeof TIMELINE)[number][1];

export interface TimelineEntry {
  state: (typeof TIMELINE)[number][0];
  at: string;
}

export interface PaymentDetail {
  payment: PaymentView;
  amount: MoneyView;
  fee: MoneyView;
  net: MoneyView;
  refunded: MoneyView;
  method_type: string;
  card: { brand: string; last4: string } | null;
  customer: { email: string | null; name: string | null };
  link_id: string | null;
  expires_at: string;
  /** Oldest first; a state stamped twice (a chargeback won back) appears once, at its latest time. */
  timeline: TimelineEntry[];
  refunds: RefundView[];
  events: PaymentEvent[];
  ledger: LedgerTransactionView[];
}

const DETAIL_COLUMNS = [
  ...PAYMENT_VIEW_COLUMNS,
  "method_type",
  "customer_email",
  "customer_name",
  "card_brand",
  "card_last4",
  "link_id",
  "expires_at",
  ...TIMELINE.map(([, column]) => column).filter((c): c is Exclude<TimelineColumn, "created_at"> => c !== "created_at"),
] as const;

/** One of the caller's own payments in full; another merchant's or mode's answers exactly like a missing one. */
export async function getPaymentDetail(deps: CoreDeps, tx: Tx, caller: MerchantCaller, id: string): Promise<PaymentDetail> {
  const row = isId("pay", id)
    ? await db(tx)
        .selectFrom("payments")
        .select(DETAIL_COLUMNS)
        .where("id", "=", id)
        .where("merchant_id", "=", caller.merchantId)
        .where("mode", "=", caller.mode)
        .executeTakeFirst()
    : undefined;
  if (!row) throw new DomainError("unknown_payment", "No such payment.");
  // One after another: `tx` may be a transaction's single connection.
  const refundRows = await db(tx).selectFrom("refunds").select(REFUND_COLUMNS).where("payment_id", "=", id).orderBy("created_at").orderBy("seq").execute();
  const events = await paymentEvents(tx, caller, id);
  const ledger = await getPaymentLedger(deps, tx, caller, id);
  const refunds = refundRows.map(toRefundView);
  const refunded = refunds.reduce((sum, r) => sum + BigInt(r.amount), 0n);
  const timeline: TimelineEntry[] = TIMELINE.flatMap(([state, column]) => {
    const at = row[column];
    return at ? [{ state, at: at.toISOString() }] : [];
  }).sort((a, b) => a.at.localeCompare(b.at));
  return {
    payment: toPaymentView(deps.config, row),
    amount: moneyView(row.amount, row.currency),
    fee: moneyView(row.service_fee, row.currency),
    net: moneyView(row.net_amount, row.currency),
    refunded: moneyView(refunded, row.currency),
    method_type: row.method_type,
    card: row.card_brand && row.card_last4 ? { brand: row.card_brand, last4: row.card_last4 } : null,
    customer: { email: row.customer_email, name: row.customer_name },
    link_id: row.link_id,
    expires_at: row.expires_at.toISOString(),
    timeline,
    refunds,
    events,
    ledger: ledger.transactions,
  };
}
