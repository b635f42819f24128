// Where webhooks may go (issue 14 finding 6: SSRF through test-mode endpoints), against real stacks.
// Every endpoint, test mode included, must reach a public address: cloud metadata (169.254.169.254),
// private and link-local hosts are refused at registration whatever form the URL takes, and again by
// the dispatcher at send time (an endpoint whose name now resolves elsewhere: DNS rebinding).
// Loopback is allowed in test mode only where WEBHOOK_ALLOW_LOOPBACK is on (`npm start`, the harness).
// Nothing here connects anywhere but loopback: refused addresses are refused before any connection.
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AppRouter } from "../core/src/trpc/router.ts";
import { CoreError } from "../proto/core-error.ts";
import { modeCodec } from "../proto/enums.ts";
import { createOk, useStack } from "./support/expect.ts";
import type { Merchant, Stack } from "./support/stack.ts";
import { eventually } from "./support/eventually.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";
import { trpcClient } from "./support/trpc.ts";

const FAST = {
  WEBHOOK_RETRY_SCHEDULE: "0,1h",
  WEBHOOK_TIMEOUT: "2s",
  DISPATCHER_POLL_INTERVAL: "100ms",
  OUTBOX_RELAY_INTERVAL: "50ms",
};

// Cloud metadata, private and link-local hosts, and loopback in forms that only look different.
const METADATA_AND_PRIVATE = [
  "http://169.254.169.254/latest/meta-data/",
  "http://[::ffff:169.254.169.254]/latest/meta-data/",
  "http://2852039166/latest/meta-data/",
  "http://0251.0376.0251.0376/latest/meta-data/",
  "http://0xa9fea9fe/latest/meta-data/",
  "http://10.0.0.5/hook",
  "http://192.168.1.10/hook",
  "http://[fd00::1]/hook",
  "http://[2002:a9fe:a9fe::1]/hook",
];

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});
afterAll(() => receiver.stop());

async function create(stack: Stack, merchantId: string, url: string, mode: "test" | "live" = "test") {
  return stack.core.webhooks.createEndpoint({ merchant_id: merchantId, mode: modeCodec.fromWire(mode), url, enabled_events: [] });
}

/** The catalog error of a refused registration. */
async function refused(stack: Stack, merchantId: string, url: string, mode: "test" | "live" = "test"): Promise<CoreError> {
  const error = await create(stack, merchantId, url, mode).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, url).toBeInstanceOf(CoreError);
  expect((error as CoreError).code, url).toBe("validation_error");
  return error as CoreError;
}

/** A payment of `merchant` driven to succeeded: one event to every test-mode endpoint of the merchant. */
async function paymentEvent(stack: Stack, merchant: Merchant): Promise<string> {
  const paymentId = (await createOk(stack.http, merchant.testApiKey)).id as string;
  await stack.admin.simulate(paymentId, "succeed");
  const [row] = await stack.sql<{ id: string }>("select id from outbox_events where envelope->'data'->>'id' = $1 and envelope->>'type' = 'payment.succeeded'", [
    paymentId,
  ]);
  return row!.id;
}

describe("WEBHOOK_ALLOW_LOOPBACK off (the default)", () => {
  const stack = useStack({ dispatcher: true, env: { ...FAST, WEBHOOK_ALLOW_LOOPBACK: "false" } });
  let merchant: Merchant;
  beforeAll(async () => {
    merchant = await stack().admin.createMerchant({ name: "Sin Loopback S.A." });
  });

  test("a test-mode endpoint at cloud metadata or a private address is refused, in every form the URL parser accepts; nothing is stored", async () => {
    for (const url of METADATA_AND_PRIVATE) {
      expect((await refused(stack(), merchant.merchantId, url)).message, url).toMatch(/^url must reach a public address: .*is not a public address\./);
    }
    // tRPC runs the same operation.
    const operator = trpcClient(stack(), stack().internalToken);
    const viaTrpc = await operator.webhooks.create
      .mutate({ merchant_id: merchant.merchantId, mode: "test", url: "http://169.254.169.254/latest/meta-data/" })
      .catch((e: unknown) => e);
    expect(viaTrpc).toBeInstanceOf(TRPCClientError);
    expect((viaTrpc as TRPCClientError<AppRouter>).data).toMatchObject({ paytami_code: "validation_error", httpStatus: 400 });
    expect((viaTrpc as TRPCClientError<AppRouter>).message).toMatch(/169\.254\.169\.254 is not a public address/);
    expect(await stack().sql("select id from webhook_endpoints where merchant_id = $1", [merchant.merchantId])).toEqual([]);
  });

  test("loopback is refused too, by literal or by name", async () => {
    for (const url of [
      receiver.url,
      receiver.url.replace("127.0.0.1", "localhost"),
      receiver.url.replace("127.0.0.1", "[::1]"),
      receiver.url.replace("127.0.0.1", "2130706433"),
    ]) {
      expect((await refused(stack(), merchant.merchantId, url)).message, url).toMatch(
        /is not a public address\. Loopback is accepted in test mode only where .*WEBHOOK_ALLOW_LOOPBACK/,
      );
    }
    expect(await stack().sql("select id from webhook_endpoints where merchant_id = $1", [merchant.merchantId])).toEqual([]);
    // A public address is accepted in test mode (and never contacted here: no event reaches it).
    const created = await create(stack(), merchant.merchantId, "http://93.184.216.34/hook");
    await stack().core.webhooks.deleteEndpoint({ id: created.endpoint!.id });
  });

  test("the dispatcher refuses at send time: an endpoint whose host now points at loopback gets a failed attempt and the receiver nothing", async () => {
    const m = await stack().admin.createMerchant({ name: "Rebinding S.A." });
    // Registered while public; then its address changes under it (a DNS name rebound, or a row from
    // before this rule). Both hosts are loopback: the literal and a name that resolves there.
    const ids: string[] = [];
    for (const url of [receiver.url, receiver.url.replace("127.0.0.1", "localhost")]) {
      const created = await create(stack(), m.merchantId, "http://93.184.216.34/hook");
      await stack().sql("update webhook_endpoints set url = $1 where id = $2", [url, created.endpoint!.id]);
      ids.push(created.endpoint!.id);
    }
    const before = receiver.requests.length;
    const eventId = await paymentEvent(stack(), m);
    const attempts = await eventually(
      async () => {
        const rows = await stack().sql<{ endpoint_id: string; http_status: number | null; error: string | null; succeeded: boolean }>(
          `select d.endpoint_id, a.http_status, a.error, a.succeeded from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
         where d.event_id = $1 order by d.endpoint_id`,
          [eventId],
        );
        return rows.length === 2 ? rows : undefined;
      },
      30_000,
      "both attempts to be recorded",
    );
    expect(attempts.map((a) => a.endpoint_id)).toEqual([...ids].sort());
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({ http_status: null, succeeded: false });
      expect(attempt.error).toMatch(/^(127\.0\.0\.1|localhost resolves to (127\.0\.0\.1|::1), which) is not a public address\.$/);
    }
    expect(receiver.requests.slice(before).filter((r) => r.eventId === eventId)).toEqual([]);
  });
});

describe("WEBHOOK_ALLOW_LOOPBACK on (npm start, the test harness)", () => {
  const stack = useStack({ dispatcher: true, env: FAST });
  let merchant: Merchant;
  beforeAll(async () => {
    merchant = await stack().admin.createMerchant({ name: "Con Loopback S.A." });
  });

  test("a test-mode endpoint on loopback is accepted and delivered to", async () => {
    const created = await create(stack(), merchant.merchantId, receiver.url.replace("127.0.0.1", "localhost"));
    const eventId = await paymentEvent(stack(), merchant);
    await receiver.waitFor((requests) => requests.some((r) => r.eventId === eventId));
    await eventually(
      async () => {
        const [row] = await stack().sql<{ status: string }>("select status from webhook_deliveries where event_id = $1 and endpoint_id = $2", [
          eventId,
          created.endpoint!.id,
        ]);
        return row?.status === "succeeded" ? true : undefined;
      },
      30_000,
      "the delivery to succeed",
    );
  });

  test("cloud metadata and private addresses stay refused in test mode; loopback stays refused in live mode", async () => {
    for (const url of METADATA_AND_PRIVATE) {
      expect((await refused(stack(), merchant.merchantId, url)).message, url).toMatch(/^url must reach a public or loopback address in test mode: /);
    }
    expect((await refused(stack(), merchant.merchantId, receiver.url.replace("http:", "https:"), "live")).message).toMatch(/public address in live mode/);
  });
});
