// Each process's own credential (issue 14, finding 8): the facade's token reaches only what its
// routes call and the dispatcher's only the delivery bookkeeping; a method outside a process's
// allow-list answers `unauthorized` and changes nothing; neither opens tRPC or /metrics, and
// neither can act for a merchant through `acting_for`. Weak or shared tokens stop a process at start.
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CoreClient } from "../proto/core-client.ts";
import { CoreError } from "../proto/core-error.ts";
import { AdminServiceService } from "../proto/gen/paytami/v1/admin.ts";
import { CheckoutServiceService } from "../proto/gen/paytami/v1/checkout.ts";
import { DeliveryServiceService } from "../proto/gen/paytami/v1/delivery.ts";
import { Mode } from "../proto/gen/paytami/v1/enums.ts";
import { LedgerServiceService } from "../proto/gen/paytami/v1/ledger.ts";
import { LinkServiceService } from "../proto/gen/paytami/v1/link.ts";
import { PaymentServiceService } from "../proto/gen/paytami/v1/payment.ts";
import { PayoutServiceService } from "../proto/gen/paytami/v1/payout.ts";
import { RefundServiceService } from "../proto/gen/paytami/v1/refund.ts";
import { WebhookServiceService } from "../proto/gen/paytami/v1/webhook.ts";
import type { AppRouter } from "../core/src/trpc/router.ts";
import { databaseSnapshot } from "./support/db-snapshot.ts";
import { createOk, useStack } from "./support/expect.ts";
import { runUntilExit, type Merchant } from "./support/stack.ts";
import { trpcClient } from "./support/trpc.ts";

const stack = useStack();
const clients: CoreClient[] = [];
afterAll(() => {
  for (const client of clients) client.close();
});

function clientWithToken(token: string): CoreClient {
  const client = new CoreClient({ address: stack().coreGrpcAddr, internalToken: token, timeoutMs: 10_000 });
  clients.push(client);
  return client;
}
const facade = () => clientWithToken(stack().facadeToken);
const dispatcher = () => clientWithToken(stack().dispatcherToken);

const SERVICES = {
  payments: PaymentServiceService,
  checkout: CheckoutServiceService,
  admin: AdminServiceService,
  links: LinkServiceService,
  refunds: RefundServiceService,
  webhooks: WebhookServiceService,
  deliveries: DeliveryServiceService,
  payouts: PayoutServiceService,
  ledger: LedgerServiceService,
} as const;

/** Every unary method of every Paytami service, with its default (empty) request. */
const METHODS = Object.entries(SERVICES).flatMap(([service, definition]) =>
  Object.entries(definition).map(([method, d]) => ({
    service,
    method,
    name: `${service}.${method}`,
    request: d.requestDeserialize(Buffer.alloc(0)) as unknown,
  })),
);

/** What the facade's routes call (grep facade/src for `core.`): payments, hosted pages, links, refunds, events, webhook endpoints, balance, payouts, chargebacks. */
const FACADE_METHODS = new Set([
  "payments.createPayment",
  "payments.getPayment",
  "payments.listPayments",
  "payments.cancelPayment",
  "checkout.resolveCheckout",
  "checkout.getCheckoutSession",
  "checkout.getHostedPayment",
  "checkout.verifyEmbedToken",
  "checkout.submitCard",
  "checkout.completeChallenge",
  "checkout.startBankTransfer",
  "checkout.cancelCheckout",
  "checkout.getLogo",
  "links.createLink",
  "links.listLinks",
  "links.getPublicLink",
  "links.payLink",
  "links.getLinkPayment",
  "refunds.createRefund",
  "refunds.getRefund",
  "refunds.listRefunds",
  "webhooks.listEvents",
  "webhooks.getEvent",
  "webhooks.createOwnEndpoint",
  "webhooks.listOwnEndpoints",
  "webhooks.getOwnEndpoint",
  "webhooks.updateOwnEndpoint",
  "webhooks.rotateOwnEndpointSecret",
  "webhooks.deleteOwnEndpoint",
  "webhooks.sendTestEvent",
  "ledger.getBalances",
  "payouts.getPayout",
  "payouts.listPayouts",
  "payouts.getChargeback",
  "payouts.listChargebacks",
]);
/** What the dispatcher calls (grep dispatcher/src for `core.`). */
const DISPATCHER_METHODS = new Set([
  "deliveries.recordDeliveries",
  "deliveries.claimDueDeliveries",
  "deliveries.recordAttempts",
  "deliveries.releaseDeliveries",
]);

function call(client: CoreClient, service: string, method: string, request: unknown, authorization?: string): Promise<unknown> {
  const calls = client[service as keyof typeof SERVICES] as unknown as Record<string, (request: unknown, meta?: object) => Promise<unknown>>;
  return calls[method]!(request, { authorization });
}

async function failureOf(promise: Promise<unknown>): Promise<CoreError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof CoreError) return error;
    throw error;
  }
}

const refusedByAllowList = (error: CoreError | undefined) => error?.code === "unauthorized" && /credential may not call/.test(error.message);

const snapshot = () => databaseSnapshot(stack());

let m: Merchant;
let paymentId: string;
let keyId: string;

beforeAll(async () => {
  const s = stack();
  m = await s.admin.createMerchant({ name: "Credenciales S.A." });
  paymentId = (await createOk(s.http, m.testApiKey)).id as string;
  keyId = (await s.admin.createKey(m.merchantId, "test")).id;
});

describe("the facade's credential", () => {
  test("is refused for merchant creation, key creation and revocation, and sandbox steps; nothing changes", async () => {
    const s = stack();
    const before = await snapshot();
    const f = facade();
    const attempts = {
      createMerchant: f.admin.createMerchant({ name: "Intruso", currencies: [], methods: [] }),
      createApiKey: f.admin.createApiKey({ merchant_id: m.merchantId, mode: Mode.MODE_LIVE }),
      revokeApiKey: f.admin.revokeApiKey({ id: keyId }),
      simulatePayment: f.admin.simulatePayment({ payment_id: paymentId, step: "succeed" }),
      setEmbedOrigins: f.admin.setEmbedOrigins({ merchant_id: m.merchantId, origins: ["https://evil.example"] }),
      simulateChargeback: f.payouts.simulateChargeback({ payment_id: paymentId, action: "open" }),
      createEndpoint: f.webhooks.createEndpoint({ merchant_id: m.merchantId, mode: Mode.MODE_TEST, url: "https://evil.example/hooks", enabled_events: [] }),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      const error = await failureOf(attempt);
      expect(error, name).toMatchObject({ code: "unauthorized", fromCore: true });
      expect(refusedByAllowList(error), `${name}: ${error?.message}`).toBe(true);
    }
    expect(await snapshot()).toEqual(before);
    // The same calls with the operator's token work (the refusal is the credential's, not the request's).
    expect((await s.admin.simulate(paymentId, "succeed")).status).toBe("captured");
  });

  test("reaches every method its routes call, and none other", async () => {
    const f = facade();
    const bearer = `Bearer ${m.testApiKey}`;
    const before = await snapshot();
    for (const { service, method, name, request } of METHODS) {
      const error = await failureOf(call(f, service, method, request, bearer));
      expect(refusedByAllowList(error), `${name}: ${error?.code} ${error?.message}`).toBe(!FACADE_METHODS.has(name));
    }
    // Empty requests change nothing, allowed or not.
    expect(await snapshot()).toEqual(before);
  });

  test("cannot act for a merchant through acting_for (the operator's alone)", async () => {
    const f = facade();
    const acting = { merchant_id: m.merchantId, mode: Mode.MODE_TEST };
    const before = await snapshot();
    const attempts = {
      createRefund: f.refunds.createRefund({ acting_for: acting, idempotency_key: "acting-for-refund-1", payment_id: paymentId, amount: "100" }),
      listRefunds: f.refunds.listRefunds({ acting_for: acting }),
      getRefund: f.refunds.getRefund({ acting_for: {}, id: "re_000000000000000000000000" }),
      createLink: f.links.createLink({
        acting_for: acting,
        idempotency_key: "acting-for-link-1",
        title: "Enlace",
        currency: "GTQ",
        fixed_amount_minor: "1000",
      }),
      listLinks: f.links.listLinks({ acting_for: acting }),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      const error = await failureOf(attempt);
      expect(error, name).toMatchObject({ code: "unauthorized", fromCore: true });
      expect(error?.message, name).toContain("operator's credential");
    }
    expect(await snapshot()).toEqual(before);
  });

  test("still serves the REST API: the facade process holds it, and only it", async () => {
    const s = stack();
    const p = await createOk(s.http, m.testApiKey, { amount: "4321" });
    expect((await s.http.getPayment(m.testApiKey, p.id)).status).toBe(200);
  });
});

describe("the dispatcher's credential", () => {
  test("reaches the delivery bookkeeping and nothing else", async () => {
    const d = dispatcher();
    const before = await snapshot();
    for (const { service, method, name, request } of METHODS) {
      const error = await failureOf(call(d, service, method, request, `Bearer ${m.testApiKey}`));
      expect(refusedByAllowList(error), `${name}: ${error?.code} ${error?.message}`).toBe(!DISPATCHER_METHODS.has(name));
    }
    expect(await snapshot()).toEqual(before);
  });

  test("is refused for merchant creation, and nothing changes", async () => {
    const before = await snapshot();
    const error = await failureOf(dispatcher().admin.createMerchant({ name: "Intruso", currencies: [], methods: [] }));
    expect(refusedByAllowList(error), error?.message).toBe(true);
    expect(await snapshot()).toEqual(before);
  });
});

// The dashboard's procedures take the facade's credential instead (test/dashboard-auth.test.ts).
describe("tRPC's operator procedures and /metrics are the operator's", () => {
  const trpc = (token: string) => trpcClient(stack(), token);

  test.each(["facade", "dispatcher"] as const)("the %s's token opens no operator procedure and not /metrics", async (name) => {
    const s = stack();
    const token = name === "facade" ? s.facadeToken : s.dispatcherToken;
    const before = await snapshot();
    const error = await trpc(token)
      .merchants.create.mutate({ name: "Intruso" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({ paytami_code: "unauthorized", httpStatus: 401 });
    expect((await fetch(`${s.coreHttpUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect(await snapshot()).toEqual(before);
    // The operator's does.
    expect((await trpc(s.internalToken).payments.get.query({ merchant_id: m.merchantId, mode: "test", id: paymentId })).id).toBe(paymentId);
  });
});

describe("tokens at start-up", () => {
  // Port 1 on loopback: if configuration did not stop the process, it would fail on the database or the core instead.
  const base = {
    PATH: process.env.PATH ?? "",
    DATABASE_URL: "postgres://paytami@127.0.0.1:1/none",
    CORE_GRPC_ADDR: "127.0.0.1:1",
    CORE_HTTP_PORT: "1",
    EMBED_TOKEN_SECRET: "e".repeat(16) + "f".repeat(16),
    PORT: "0",
    DISPATCHER_HTTP_PORT: "0",
    NATS_URL: "nats://127.0.0.1:1",
  };
  const strong = (c: string) => `${c}${"0123456789abcdefghijklmnopqrstuv"}`;

  test.each([
    ["core", "PAYTAMI_INTERNAL_TOKEN", "x".repeat(31)],
    ["core", "PAYTAMI_FACADE_TOKEN", "short"],
    ["core", "PAYTAMI_DISPATCHER_TOKEN", "a".repeat(64)],
    ["facade", "PAYTAMI_FACADE_TOKEN", "0".repeat(40)],
    ["dispatcher", "PAYTAMI_DISPATCHER_TOKEN", "tooshort"],
  ] as const)("%s with a weak %s exits 1 with one line saying so", async (name, variable, token) => {
    const { code, output } = await runUntilExit(name, { ...base, [variable]: token }, 20_000);
    expect(code, output).toBe(1);
    const lines = output.trim().split("\n");
    expect(lines, output).toHaveLength(1);
    expect(lines[0]).toContain(`${variable} is too weak: it must be at least 32 characters and not one character repeated`);
    expect(lines[0]).toContain(`${name} failed to start`);
  });

  test("the core refuses one token for two processes", async () => {
    const { code, output } = await runUntilExit("core", { ...base, PAYTAMI_INTERNAL_TOKEN: strong("a"), PAYTAMI_FACADE_TOKEN: strong("a") }, 20_000);
    expect(code, output).toBe(1);
    expect(output).toContain("PAYTAMI_FACADE_TOKEN is the same as PAYTAMI_INTERNAL_TOKEN");
  });

  test.each([
    ["facade", "PAYTAMI_FACADE_TOKEN"],
    ["dispatcher", "PAYTAMI_DISPATCHER_TOKEN"],
  ] as const)("the %s does not take the operator's token for its own", async (name, variable) => {
    const { code, output } = await runUntilExit(name, { ...base, PAYTAMI_INTERNAL_TOKEN: strong("o") }, 20_000);
    expect(code, output).toBe(1);
    expect(output).toContain(`${variable} is required`);
  });

  test("a strong token is accepted: the core gets past its configuration (and stops only at the unreachable database)", async () => {
    const { code, output } = await runUntilExit(
      "core",
      { ...base, PAYTAMI_INTERNAL_TOKEN: strong("o"), PAYTAMI_FACADE_TOKEN: strong("f"), PAYTAMI_DISPATCHER_TOKEN: strong("d") },
      20_000,
    );
    expect(code, output).toBe(1);
    expect(output).not.toContain("too weak");
    expect(output).toMatch(/ECONNREFUSED|connect/);
  });
});
