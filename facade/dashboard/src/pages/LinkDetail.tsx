import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "wouter";
import { CopyButton } from "../components/CopyButton.tsx";
import { Fact, Facts } from "../components/Facts.tsx";
import { useKeysetPages } from "../components/DataTable.tsx";
import { KeysetTable } from "../components/KeysetTable.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { QrCode } from "../components/QrCode.tsx";
import { StatusBadge } from "../components/StatusBadge.tsx";
import { errorText } from "../errors.ts";
import { useFormat } from "../format/use-format.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { label } from "../i18n/label.ts";
import { linkMessages } from "../i18n/messages/links.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { atLeast } from "../roles.ts";
import { useSession } from "../session.tsx";
import { useTRPC, type RouterOutputs } from "../trpc.ts";
import "../styles/pages.css";
import { linkAmount, linkState } from "./link-view.ts";
import { usePaymentColumns } from "../components/payment-columns.tsx";

type LinkObject = RouterOutputs["dashboard"]["links"]["get"];

/** One link: its address to copy, its QR code (SVG, PNG for printing), its settings, its payments; deactivate for roles that may. */
export default function LinkDetail() {
  const { id } = useParams<{ id: string }>();
  const m = useMessages(linkMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const link = useQuery(trpc.dashboard.links.get.queryOptions({ id }));
  return (
    <Page title={link.data ? m.detail.title(link.data.title) : m.title} actions={<Link href="/links">{m.detail.back}</Link>}>
      {link.isPending ? <Loading /> : link.isError ? <Notice tone="danger">{errorText(link.error, shell, lang)}</Notice> : <LinkBody link={link.data} />}
    </Page>
  );
}

function LinkBody({ link }: { link: LinkObject }) {
  const m = useMessages(linkMessages);
  const format = useFormat();
  const { me } = useSession();
  const none = m.detail.none;
  return (
    <>
      <div className="link-top">
        <section className="panel" aria-labelledby="link-url-heading">
          <h2 id="link-url-heading">{m.detail.url}</h2>
          <code className="secret" data-testid="link-url">
            {link.url}
          </code>
          <p>
            <CopyButton text={link.url} label={m.detail.url} />
          </p>
        </section>
        <section className="panel" aria-labelledby="link-qr-heading">
          <h2 id="link-qr-heading">{m.detail.qr}</h2>
          <QrCode text={link.url} label={m.detail.qrLabel(link.url)} downloadLabel={m.detail.download} fileName={`${link.id}-qr.png`} />
          <p>
            <a href={`${link.url}/qr.svg`}>{m.detail.svg}</a>
          </p>
        </section>
      </div>
      <section className="panel" aria-labelledby="link-settings-heading">
        <h2 id="link-settings-heading">{m.detail.settings}</h2>
        <Facts>
          <Fact term={m.detail.state}>
            <StatusBadge tone={link.payable ? "success" : "neutral"}>{label(m.states, linkState(link))}</StatusBadge>
          </Fact>
          <Fact term={m.detail.amount}>{linkAmount(link, format.money, m.variable)}</Fact>
          <Fact term={m.detail.description}>
            <span data-testid="link-description">{link.description || none}</span>
          </Fact>
          <Fact term={m.detail.expires}>{link.expires_at ? format.dateTime(link.expires_at) : m.detail.never}</Fact>
          <Fact term={m.detail.maxPayments}>{link.max_payments ?? m.detail.unlimited}</Fact>
          <Fact term={m.detail.succeeded}>{link.succeeded_payments}</Fact>
          <Fact term={m.detail.successUrl}>{link.success_url ?? none}</Fact>
          <Fact term={m.detail.cancelUrl}>{link.cancel_url ?? none}</Fact>
          <Fact term={m.detail.created}>{format.dateTime(link.created_at)}</Fact>
        </Facts>
        {link.active && atLeast(me.role, "admin") && <Deactivate id={link.id} />}
      </section>
      <LinkPayments id={link.id} />
    </>
  );
}

function LinkPayments({ id }: { id: string }) {
  const m = useMessages(linkMessages);
  const trpc = useTRPC();
  const pages = useKeysetPages();
  const columns = usePaymentColumns();
  const list = useQuery(trpc.dashboard.links.payments.queryOptions({ id, starting_after: pages.cursor }));
  return (
    <section aria-labelledby="link-payments-heading">
      <h2 id="link-payments-heading">{m.detail.payments}</h2>
      <KeysetTable list={list} pages={pages} caption={m.detail.payments} columns={columns} />
    </section>
  );
}

function Deactivate({ id }: { id: string }) {
  const m = useMessages(linkMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const deactivate = useMutation(
    trpc.dashboard.links.deactivate.mutationOptions({
      onSuccess: async () => {
        await client.invalidateQueries({ queryKey: trpc.dashboard.links.get.queryKey({ id }) });
        await client.invalidateQueries({ queryKey: trpc.dashboard.links.list.pathKey() });
      },
    }),
  );
  return (
    <div className="danger-zone">
      {deactivate.isError && <Notice tone="danger">{errorText(deactivate.error, shell, lang)}</Notice>}
      {asking ? (
        <div role="group" aria-label={m.detail.deactivate}>
          <p>{m.detail.deactivateConfirm}</p>
          <div className="form-actions">
            <button type="button" className="button button-danger" disabled={deactivate.isPending} onClick={() => deactivate.mutate({ id })}>
              {m.detail.yes}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setAsking(false)}>
              {m.detail.no}
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="button button-danger" onClick={() => setAsking(true)}>
          {m.detail.deactivate}
        </button>
      )}
    </div>
  );
}
