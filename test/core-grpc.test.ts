// The core's gRPC contract as internal callers meet it (issue 5, items 6 and 8): every Paytami
// service requires the internal token (the standard health service stays open), typed fields and
// enums, and the same validation, error codes and check order as the REST API.

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CoreClient } from "../proto/core-client.ts";
import { CoreError } from "../proto/core-error.ts";
import { HealthCheckResponse_ServingStatus } from "../proto/gen/grpc/health/v1/health.ts";
import { AdminServiceService } from "../proto/gen/paytami/v1/admin.ts";
import { CheckoutServiceService } from "../proto/gen/paytami/v1/checkout.ts";
import { Currency, MethodType, Mode, PaymentStatus } from "../proto/gen/paytami/v1/enums.ts";
import { PaymentServiceService, type CreatePaymentRequest } from "../proto/gen/paytami/v1/payment.ts";
import type { Merchant } from "./support/stack.ts";
import { runUntilExit } from "./support/stack.ts";
import { createOk, useStack, validBody } from "./support/expect.ts";

const stack = useStack();
let m: Merchant;
const strangers: CoreClient[] = [];

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda gRPC" });
});
afterAll(() => {
  for (const client of strangers) client.close();
});

function clientWithToken(internalToken: string | undefined): CoreClient {
  const client = new CoreClient({ address: stack().coreGrpcAddr, internalToken, timeoutMs: 10_000 });
  strangers.push(client);
  return client;
}

async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return "ok";
  } catch (error) {
    if (error instanceof CoreError) return error.code;
    throw error;
  }
}

/** Every unary method of the three Paytami services, with its default (empty) request. */
const METHODS = Object.entries({ payments: PaymentServiceService, checkout: CheckoutServiceService, admin: AdminServiceService }).flatMap(
  ([service, definition]) => Object.entries(definition).map(([method, d]) => ({ service, method, request: d.requestDeserialize(Buffer.alloc(0)) as unknown })),
);

function call(client: CoreClient, service: string, method: string, request: unknown, authorization?: string): Promise<unknown> {
  const calls = client[service as "payments"] as unknown as Record<string, (request: unknown, meta?: object) => Promise<unknown>>;
  return calls[method]!(request, { authorization });
}

describe("the internal token", () => {
  test("there are methods on all three services to check", () => {
    expect(new Set(METHODS.map((x) => x.service))).toEqual(new Set(["payments", "checkout", "admin"]));
    expect(METHODS.length).toBeGreaterThanOrEqual(12);
  });

  test.each(METHODS)(
    "$service.$method without the token, or with a wrong one, is unauthorized even with a valid API key",
    async ({ service, method, request }) => {
      const bearer = `Bearer ${m.testApiKey}`;
      for (const client of [clientWithToken(undefined), clientWithToken("wrong-token"), clientWithToken("")]) {
        expect(await codeOf(call(client, service, method, request, bearer))).toBe("unauthorized");
      }
    },
  );

  test("a valid call without the token is refused before it does anything", async () => {
    const s = stack();
    const before = await s.paymentCount();
    const request: CreatePaymentRequest = { idempotency_key: randomUUID(), ...validBody() };
    const error = await clientWithToken(undefined)
      .payments.createPayment(request, { authorization: `Bearer ${m.testApiKey}` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CoreError);
    expect(error).toMatchObject({ code: "unauthorized", fromCore: true });
    expect(await s.paymentCount()).toBe(before);
  });

  test("the standard health service stays open (load balancers probe it without a token)", async () => {
    const health = await clientWithToken(undefined).health.check({ service: "" });
    expect(health.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
  });

  test("REST keeps working: the facade sends the token", async () => {
    const p = await createOk(stack().http, m.testApiKey);
    expect((await stack().http.getPayment(m.testApiKey, p.id)).status).toBe(200);
  });

  test.each([
    ["facade", "PAYTAMI_FACADE_TOKEN"],
    ["dispatcher", "PAYTAMI_DISPATCHER_TOKEN"],
  ] as const)("the %s refuses to start without its own token, %s", async (name, variable) => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", DISPATCHER_HTTP_PORT: "0", CORE_GRPC_ADDR: stack().coreGrpcAddr };
    delete env[variable];
    const { code, output } = await runUntilExit(name, env, 20_000);
    expect(code, output).not.toBe(0);
    expect(code, output).not.toBeNull();
    expect(output).toContain(`${variable} is required`);
  });
});

describe("typed fields, validated once in the core", () => {
  const bearer = () => ({ authorization: `Bearer ${m.testApiKey}` });

  test("a payment comes back with enum status and currency, snake_case fields and money as strings", async () => {
    const { payment, replayed } = await stack().core.payments.createPayment({ idempotency_key: randomUUID(), ...validBody({ amount: "12345" }) }, bearer());
    expect(replayed).toBe(false);
    expect(payment).toMatchObject({ status: PaymentStatus.PAYMENT_STATUS_CREATED, currency: Currency.CURRENCY_GTQ, amount: "12345" });
    expect(typeof payment!.service_fee).toBe("string");
    expect(typeof payment!.net_amount).toBe("string");
    const listed = await stack().core.payments.listPayments({ limit: 1, status: PaymentStatus.PAYMENT_STATUS_CREATED }, bearer());
    expect(listed.data.map((p) => p.id)).toEqual([payment!.id]);
  });

  test("json_only (the facade's shape): CreatePayment and GetPayment answer only the JSON bytes, the object the full answer carries", async () => {
    const idempotency_key = randomUUID();
    const request = { idempotency_key, ...validBody({ amount: "23456", description: "Pedido 7" }) };
    const lean = await stack().core.payments.createPayment({ ...request, json_only: true }, bearer());
    expect(lean.payment).toBeUndefined();
    expect(lean.replayed).toBe(false);
    const created = JSON.parse(lean.json.toString("utf8")) as Record<string, unknown>;
    expect(created).toMatchObject({ status: "created", currency: "GTQ", amount: "23456", description: "Pedido 7" });
    // The same key without json_only replays it: message and bytes, the bytes identical.
    const full = await stack().core.payments.createPayment(request, bearer());
    expect(full.replayed).toBe(true);
    expect(full.payment).toMatchObject({ id: created.id, status: PaymentStatus.PAYMENT_STATUS_CREATED, amount: "23456" });
    expect(full.json.equals(lean.json)).toBe(true);
    const got = await stack().core.payments.getPayment({ id: created.id as string, json_only: true }, bearer());
    expect(got.payment).toBeUndefined();
    expect(got.json.equals(lean.json)).toBe(true);
    const gotFull = await stack().core.payments.getPayment({ id: created.id as string }, bearer());
    expect(gotFull.payment?.id).toBe(created.id);
    expect(gotFull.json.equals(lean.json)).toBe(true);
    // Not part of the body: the same request asking for json_only again is the same request (a replay, not a 409).
    expect((await stack().core.payments.createPayment({ ...request, json_only: true }, bearer())).replayed).toBe(true);
  });

  test("an internal caller gets the REST API's validation and codes: currency, method, amount", async () => {
    const create = (fields: Record<string, unknown>) =>
      codeOf(stack().core.payments.createPayment({ idempotency_key: randomUUID(), ...validBody(fields) }, bearer()));
    expect(await create({ currency: "EUR" })).toBe("currency_not_supported");
    expect(await create({ currency: "eur" })).toBe("validation_error");
    expect(await create({ method_type: "cash" })).toBe("validation_error");
    expect(await create({ amount: "1.00" })).toBe("validation_error");
    expect(await create({ amount: "1" })).toBe("amount_below_minimum");
    expect(await create({ success_url: "not a url" })).toBe("validation_error");
    expect(await codeOf(stack().core.payments.createPayment({ idempotency_key: "", ...validBody() }, bearer()))).toBe("idempotency_key_required");
  });

  test.each([
    ["an unknown status number", { status: 99 as PaymentStatus }],
    ["UNRECOGNIZED", { status: PaymentStatus.UNRECOGNIZED }],
    ["UNSPECIFIED", { status: PaymentStatus.PAYMENT_STATUS_UNSPECIFIED }],
    ["limit 0", { limit: 0 }],
    ["limit 101", { limit: 101 }],
    ["a negative limit", { limit: -5 }],
  ])("ListPayments with %s is a validation_error, after the API key", async (_name, request) => {
    expect(await codeOf(stack().core.payments.listPayments(request, bearer()))).toBe("validation_error");
    expect(await codeOf(stack().core.payments.listPayments(request, {}))).toBe("unauthorized");
  });

  test("AdminService rejects enum values it does not know", async () => {
    const admin = stack().core.admin;
    expect(await codeOf(admin.createApiKey({ merchant_id: m.merchantId, mode: Mode.MODE_UNSPECIFIED }))).toBe("validation_error");
    expect(await codeOf(admin.createApiKey({ merchant_id: m.merchantId, mode: 7 as Mode }))).toBe("validation_error");
    expect(await codeOf(admin.createMerchant({ name: "X", currencies: [Currency.UNRECOGNIZED], methods: [] }))).toBe("validation_error");
    expect(await codeOf(admin.createMerchant({ name: "X", currencies: [], methods: [9 as MethodType] }))).toBe("validation_error");
    const key = await admin.createApiKey({ merchant_id: m.merchantId, mode: Mode.MODE_LIVE });
    expect(key.mode).toBe(Mode.MODE_LIVE);
    expect(key.api_key).toMatch(/^sk_live_/);
  });
});
