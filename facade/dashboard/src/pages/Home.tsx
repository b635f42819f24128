import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useCallback } from "react";
import { Link } from "wouter";
import { DataTable } from "../components/DataTable.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { usePaymentColumns } from "../components/payment-columns.tsx";
import { errorText } from "../errors.ts";
import { useFormat } from "../format/use-format.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { homeMessages } from "../i18n/messages/home.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { useSession } from "../session.tsx";
import { useTRPC, type RouterOutputs } from "../trpc.ts";
import "../styles/pages.css";

// uPlot is loaded with the chart only (its own chunk), never with the shell or another page.
const VolumeChart = lazy(() => import("../components/VolumeChart.tsx"));

type Summary = RouterOutputs["dashboard"]["home"]["summary"];

/** The landing page: failing webhooks first, balances per currency, 30 days of volume, the latest payments. */
export default function Home() {
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const { me } = useSession();
  const merchant = me.memberships.find((membership) => membership.merchant_id === me.merchant_id);
  const summary = useQuery(trpc.dashboard.home.summary.queryOptions(undefined));
  return (
    <Page title={shell.nav.home}>
      <p className="muted">{merchant?.merchant_name ?? me.merchant_id}</p>
      {summary.isPending ? (
        <Loading />
      ) : summary.isError ? (
        <Notice tone="danger">{errorText(summary.error, shell, lang)}</Notice>
      ) : (
        <HomeBody summary={summary.data} />
      )}
    </Page>
  );
}

function HomeBody({ summary }: { summary: Summary }) {
  const m = useMessages(homeMessages);
  const { lang } = useLang();
  const format = useFormat();
  const columns = usePaymentColumns();
  const failing = summary.failing_deliveries;
  const dayLabel = useCallback(
    (date: string) =>
      new Intl.DateTimeFormat(lang === "es" ? "es-GT" : "en-US", { timeZone: "UTC", day: "numeric", month: "short" }).format(new Date(`${date}T00:00:00Z`)),
    [lang],
  );
  // The core's days are the merchant's calendar days already: shown as they are, in UTC, never shifted by a zone.
  const dayLong = (date: string) =>
    new Intl.DateTimeFormat(lang === "es" ? "es-GT" : "en-US", { timeZone: "UTC", dateStyle: "medium" }).format(new Date(`${date}T00:00:00Z`));
  return (
    <>
      {failing.count > 0 && (
        <Notice tone="warning">
          <span data-testid="failing-deliveries">{m.failing(failing.count)}</span>
          {failing.newest && (
            <span className="block">
              {m.failingNewest(failing.newest.event_type, failing.newest.last_http_status === null ? "" : String(failing.newest.last_http_status))}
            </span>
          )}
        </Notice>
      )}
      <section aria-labelledby="balances-heading">
        <h2 id="balances-heading">{m.balances}</h2>
        <ul className="cards">
          {summary.balances.map((b) => (
            <li key={b.currency} className="panel card">
              <h3>{b.currency}</h3>
              <dl className="facts">
                <div className="item">
                  <dt>{m.available}</dt>
                  <dd className="big" data-testid={`home-available-${b.currency}`}>
                    {b.available_formatted}
                  </dd>
                </div>
                <div className="item">
                  <dt>{m.pending}</dt>
                  <dd data-testid={`home-pending-${b.currency}`}>{b.pending_formatted}</dd>
                </div>
                {b.in_transit !== "0" && (
                  <div className="item">
                    <dt>{m.inTransit}</dt>
                    <dd>{b.in_transit_formatted}</dd>
                  </div>
                )}
              </dl>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="volume-heading">
        <h2 id="volume-heading">{m.volume}</h2>
        {summary.volume.map((v) => (
          <figure key={v.currency} className="panel volume">
            <figcaption>
              <strong>{v.currency}</strong>: {m.volumeTotal(v.total.formatted, v.count)}
            </figcaption>
            <Suspense fallback={<div className="volume-chart" />}>
              <VolumeChart
                currency={v.currency}
                days={v.days}
                label={m.chartLabel(v.currency)}
                amountLabel={m.chartAmount}
                countLabel={m.chartCount}
                dayLabel={dayLabel}
              />
            </Suspense>
            <details>
              <summary>{m.chartTable}</summary>
              <DataTable
                caption={m.chartLabel(v.currency)}
                rows={v.days}
                rowKey={(d) => d.date}
                columns={[
                  { key: "date", header: m.chartColumns.date, cell: (d) => dayLong(d.date) },
                  { key: "amount", header: m.chartColumns.amount, align: "end", cell: (d) => format.money(d.amount, v.currency) },
                  { key: "count", header: m.chartColumns.count, align: "end", cell: (d) => d.count },
                ]}
              />
            </details>
          </figure>
        ))}
      </section>
      <section aria-labelledby="recent-heading">
        <h2 id="recent-heading">{m.recent}</h2>
        <DataTable caption={m.recent} columns={columns} rows={summary.recent_payments} rowKey={(p) => p.id} />
        <p>
          <Link href="/payments">{m.allPayments}</Link>
        </p>
      </section>
    </>
  );
}
