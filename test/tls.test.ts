// TLS with client certificates between the processes (issue 14, finding 8): a throw-away CA issues
// the core's, the facade's, the dispatcher's and the operator's certificates; a payment made
// through the facade and its webhook sent by the dispatcher both cross the core's gRPC port over
// mutual TLS, and a client without a certificate, with one from another CA, or in plaintext is
// turned away before any call reaches the core, even with the operator's token.
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { CoreClient } from "../proto/core-client.ts";
import { CoreError } from "../proto/core-error.ts";
import { coreTlsEnv } from "../proto/core-tls.ts";
import { Mode } from "../proto/gen/paytami/v1/enums.ts";
import { createCa, issue, tlsEnv } from "./support/certificates.ts";
import { createOk, useStack } from "./support/expect.ts";
import { eventually } from "./support/eventually.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

const stack = useStack({
  tls: true,
  dispatcher: true,
  env: { OUTBOX_RELAY_INTERVAL: "50ms", DISPATCHER_POLL_INTERVAL: "100ms", WEBHOOK_RETRY_SCHEDULE: "0,300ms,300ms" },
});

const clients: CoreClient[] = [];
const receivers: WebhookReceiver[] = [];
afterAll(async () => {
  for (const client of clients) client.close();
  for (const receiver of receivers) await receiver.stop();
});

/** A client of this stack's core with the operator's token and the given CORE_TLS_* (none: plaintext). */
function client(env: Record<string, string>): CoreClient {
  const c = new CoreClient({ address: stack().coreGrpcAddr, internalToken: stack().internalToken, tls: coreTlsEnv(env, "client"), timeoutMs: 5_000 });
  clients.push(c);
  return c;
}

/** A second CA the stack knows nothing of, and a client certificate it issued. */
const strangers = (() => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "paytami-other-ca-"));
  const ca = createCa(dir, "other-ca");
  return { dir, ca, operator: issue(ca, "operator", "client") };
})();
afterAll(() => rmSync(strangers.dir, { recursive: true, force: true }));

async function merchantCount(): Promise<number> {
  return Number((await stack().sql<{ n: string }>("select count(*)::text as n from merchants"))[0]!.n);
}

describe("mutual TLS between the facade, the dispatcher and the core", () => {
  test("a payment through the facade and its webhook through the dispatcher", async () => {
    const s = stack();
    expect(s.tls).toBeDefined();
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    // The harness's operator client, over TLS with its own certificate.
    const m = await s.admin.createMerchant({ name: "Tienda TLS" });
    await s.core.webhooks.createEndpoint({ merchant_id: m.merchantId, mode: Mode.MODE_TEST, url: receiver.url, enabled_events: ["payment.succeeded"] });

    // facade → core: REST creation, read back, and the checkout session (CheckoutService).
    const payment = await createOk(s.http, m.testApiKey, { amount: "5150" });
    expect((await s.http.getPayment(m.testApiKey, payment.id)).json).toMatchObject({ id: payment.id, status: "created" });
    expect((await s.http.get(`/v1/payments/${payment.id}/checkout_session`)).json).toMatchObject({ payment_id: payment.id, payable: true });

    // dispatcher → core: the event recorded as a delivery, claimed, sent and its attempt recorded.
    await s.admin.simulate(payment.id, "succeed");
    const request = await eventually(async () => receiver.requests.find((r) => r.body.toString().includes(payment.id)), 30_000, "the webhook");
    expect(JSON.parse(request.body.toString())).toMatchObject({ type: "payment.succeeded", data: { id: payment.id } });
    await eventually(
      async () =>
        (await s.sql("select 1 from webhook_deliveries where event_id = $1 and status = 'succeeded'", [request.eventId])).length === 1 ? true : undefined,
      30_000,
      "the delivery to be recorded as succeeded",
    );
  });

  test("the processes ran with their own certificates and no fallback to plaintext", async () => {
    const s = stack();
    expect(s.logText("core")).toContain('"grpc_tls":"client certificates required"');
    for (const name of ["facade", "dispatcher"] as const) {
      expect(s.logText(name)).toContain('"core_tls":true');
      expect(s.logText(name)).not.toMatch(/unreachable|UNAVAILABLE|failed to start/);
    }
    // The core's port speaks only TLS: a plaintext client with the operator's token gets no answer from it.
    const error = await client({})
      .payments.authenticate({})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CoreError);
    expect(error).toMatchObject({ fromCore: false });
  });
});

describe("clients the core turns away", () => {
  const issued = () => stack().tls!.issued;

  test.each([
    ["no certificate", () => ({ CORE_TLS_CA: issued().operator.ca })],
    ["a certificate from another CA", () => tlsEnv({ ...strangers.operator, ca: issued().operator.ca })],
    ["plaintext", () => ({})],
  ])("%s: refused before any call runs, even with the operator's token", async (_name, env) => {
    const before = await merchantCount();
    const error = await client(env())
      .admin.createMerchant({ name: "Sin certificado", currencies: [], methods: [] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CoreError);
    // No core answered: the connection itself was refused.
    expect(error).toMatchObject({ code: "processor_unavailable", fromCore: false });
    expect(await merchantCount()).toBe(before);
  });

  test("a client that trusts another CA refuses the core (the core is authenticated too)", async () => {
    const error = await client({ ...tlsEnv(issued().operator), CORE_TLS_CA: strangers.ca.cert })
      .payments.authenticate({})
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "processor_unavailable", fromCore: false });
  });

  test("the same call with the operator's certificate from the stack's CA goes through", async () => {
    const before = await merchantCount();
    await client(tlsEnv(issued().operator)).admin.createMerchant({ name: "Con certificado", currencies: [], methods: [] });
    expect(await merchantCount()).toBe(before + 1);
  });

  test("the facade's certificate with the facade's token still gets only the facade's methods", async () => {
    const c = new CoreClient({
      address: stack().coreGrpcAddr,
      internalToken: stack().facadeToken,
      tls: coreTlsEnv(tlsEnv(issued().facade), "client"),
      timeoutMs: 5_000,
    });
    clients.push(c);
    const error = await c.admin.createMerchant({ name: "Intruso", currencies: [], methods: [] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "unauthorized", fromCore: true });
  });
});
