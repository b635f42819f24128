// The dashboard's home page in one answer: balances, 30 days of gross volume, the latest payments
// and whether webhook deliveries are failing.
import { sql } from "kysely";
import { formatMoney, moneyView, type MoneyView } from "../../../proto/format-money.ts";
import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { listDashboardPayments, type PaymentListItem } from "./dashboard-payments.ts";
import { getBalances, type BalanceView } from "./ledger-views.ts";
import type { Tx } from "./unit-of-work.ts";

export const VOLUME_DAYS = 30;
export const RECENT_PAYMENTS = 10;

export interface HomeBalance extends BalanceView {
  pending_formatted: string;
  available_formatted: string;
  in_transit_formatted: string;
}

export interface VolumeDay {
  /** The merchant's calendar day, YYYY-MM-DD in `time_zone`. */
  date: string;
  /** Integer minor units. */
  amount: string;
  count: number;
}

export interface CurrencyVolume {
  currency: string;
  total: MoneyView;
  count: number;
  /** Oldest first, exactly VOLUME_DAYS days, today (in `time_zone`) last; days without payments are zeros. */
  days: VolumeDay[];
}

export interface FailingDeliveries {
  /** Failed (given up) or retrying (pending after a failed attempt) deliveries attempted within the window. */
  count: number;
  since: string;
  newest: {
    id: string;
    event_id: string;
    event_type: string;
    endpoint_id: string;
    status: string;
    attempt_count: number;
    last_http_status: number | null;
    last_attempt_at: string | null;
  } | null;
}

export interface HomeSummary {
  time_zone: string;
  balances: HomeBalance[];
  volume: CurrencyVolume[];
  recent_payments: PaymentListItem[];
  failing_deliveries: FailingDeliveries;
}

/** The calendar date of `at` in `timeZone` (YYYY-MM-DD). */
export function dateIn(timeZone: string, at: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

/** The `count` calendar dates ending with `last`, oldest first (date arithmetic on the label, not on instants). */
export function datesEndingWith(last: string, count: number): string[] {
  const end = Date.parse(`${last}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(end - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

interface VolumeRow {
  date: string;
  currency: string;
  amount: string;
  count: string;
}

/**
 * Succeeded payments (captured, whatever happened after: gross volume) by the day they were created
 * in the merchant's zone, per currency. The range is walked on payments_list_idx (merchant, mode,
 * created_at).
 */
async function volumeByDay(deps: CoreDeps, tx: Tx, caller: MerchantCaller, timeZone: string, dates: string[]): Promise<VolumeRow[]> {
  const zone = sql.val(timeZone);
  // Midnight of the first day in the merchant's zone, as an instant.
  const from = sql<Date>`(${dates[0]}::date::timestamp at time zone ${zone})`;
  const day = sql<string>`to_char(created_at at time zone ${zone}, 'YYYY-MM-DD')`;
  return (
    db(tx)
      .selectFrom("payments")
      .select([day.as("date"), "currency", sql<string>`sum(amount)::text`.as("amount"), sql<string>`count(*)::text`.as("count")])
      .where("merchant_id", "=", caller.merchantId)
      .where("mode", "=", caller.mode)
      .where("created_at", ">=", from)
      .where("created_at", "<=", deps.now())
      .where("captured_at", "is not", null)
      // By position: the zone is a bound value, so the select's expression and a repeated one would differ.
      .groupBy([sql`1`, "currency"])
      .execute()
  );
}

async function failingDeliveries(deps: CoreDeps, tx: Tx, caller: MerchantCaller): Promise<FailingDeliveries> {
  const since = new Date(deps.now().getTime() - deps.config.dashboardViews.deliveryAlertWindowMs);
  // The predicate of webhook_deliveries_failing_idx, written the same way so the planner uses it.
  const failing = db(tx)
    .selectFrom("webhook_deliveries")
    .where("merchant_id", "=", caller.merchantId)
    .where("mode", "=", caller.mode)
    .where("last_attempt_at", ">=", since)
    .where((eb) => eb.or([eb("status", "=", "failed"), eb.and([eb("status", "=", "pending"), eb("attempt_count", ">", 0)])]));
  const counted = await failing.select((eb) => eb.fn.countAll<string>().as("count")).executeTakeFirstOrThrow();
  const newest = await failing
    .select(["id", "event_id", "event_type", "endpoint_id", "status", "attempt_count", "last_http_status", "last_attempt_at"])
    .orderBy("last_attempt_at", "desc")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return {
    count: Number(counted.count),
    since: since.toISOString(),
    newest: newest ? { ...newest, last_attempt_at: newest.last_attempt_at?.toISOString() ?? null } : null,
  };
}

export async function getHomeSummary(deps: CoreDeps, tx: Tx, caller: MerchantCaller): Promise<HomeSummary> {
  // The merchant's own zone (Settings), else DASHBOARD_TIME_ZONE.
  const own = await db(tx).selectFrom("merchants").select("time_zone").where("id", "=", caller.merchantId).executeTakeFirst();
  const timeZone = own?.time_zone ?? deps.config.dashboardViews.timeZone;
  const { balances } = await getBalances(deps, tx, caller);
  const dates = datesEndingWith(dateIn(timeZone, deps.now()), VOLUME_DAYS);
  const rows = await volumeByDay(deps, tx, caller, timeZone, dates);
  const volume = balances.map(({ currency }): CurrencyVolume => {
    const mine = new Map(rows.filter((r) => r.currency === currency).map((r) => [r.date, r]));
    const days = dates.map((date) => ({ date, amount: mine.get(date)?.amount ?? "0", count: Number(mine.get(date)?.count ?? 0) }));
    const total = days.reduce((sum, d) => sum + BigInt(d.amount), 0n);
    return { currency, total: moneyView(total, currency), count: days.reduce((sum, d) => sum + d.count, 0), days };
  });
  const recent = await listDashboardPayments(deps, tx, caller, { limit: RECENT_PAYMENTS });
  return {
    time_zone: timeZone,
    balances: balances.map((b) => ({
      ...b,
      pending_formatted: formatMoney(b.pending, b.currency),
      available_formatted: formatMoney(b.available, b.currency),
      in_transit_formatted: formatMoney(b.in_transit, b.currency),
    })),
    volume,
    recent_payments: recent.data,
    failing_deliveries: await failingDeliveries(deps, tx, caller),
  };
}
