// Nothing is lost when a process goes away (DESIGN §4 "Guarantee"): the dispatcher SIGKILLed in the
// middle of a delivery, nats-server stopped for 30 s while payments keep being captured, a core
// killed right after committing a change and before relaying it. Each ends with every event
// delivered and recorded. This file runs its own nats-server, since it stops it.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { modeCodec } from "../proto/enums.ts";
import { connect as natsConnect } from "@nats-io/transport-node";
import { freePort } from "../core/src/devstack/free-port.ts";
import { startChild, type Child } from "../core/src/devstack/processes.ts";
import { findExecutable } from "../core/src/devstack/system-packages.ts";
import { createOk } from "./support/expect.ts";
import { startStack, type Stack } from "./support/stack.ts";
import { eventually } from "./support/eventually.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

let natsHome: string;
let natsPort: number;
let nats: Child;

/** A nats-server of this file's own with JetStream, on the same port and store every time it is started. */
async function startNats(): Promise<Child> {
  const bin = findExecutable("nats-server", ["/usr/bin", "/usr/sbin", "/usr/local/bin"]);
  if (!bin) throw new Error("nats-server not found");
  const child = startChild("nats", bin, ["-js", "-sd", natsHome, "-a", "127.0.0.1", "-p", String(natsPort)], {
    output: { logFile: path.join(natsHome, "nats.log") },
  });
  const nc = await natsConnect({ servers: natsUrl(), maxReconnectAttempts: 100, reconnectTimeWait: 100, waitOnFirstConnect: true });
  await nc.close();
  return child;
}
const natsUrl = () => `nats://127.0.0.1:${natsPort}`;
let stack: Stack;
let merchant: { merchantId: string; testApiKey: string };
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  natsHome = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-nats-"));
  natsPort = await freePort();
  nats = await startNats();
  stack = await startStack({
    dispatcher: true,
    env: {
      NATS_URL: natsUrl(),
      WEBHOOK_RETRY_SCHEDULE: "0,300ms,300ms,300ms,300ms,300ms,300ms,300ms",
      WEBHOOK_TIMEOUT: "1s",
      DISPATCHER_POLL_INTERVAL: "100ms",
      OUTBOX_RELAY_INTERVAL: "100ms",
      OUTBOX_RELAY_LEASE: "3s",
    },
  });
  merchant = await stack.admin.createMerchant({ name: "Resiliente S.A." });
}, 120_000);

afterAll(async () => {
  for (const r of receivers) await r.stop();
  await stack?.stop();
  await nats?.stop();
  fs.rmSync(natsHome, { recursive: true, force: true });
});

async function receiver(behaviour?: ConstructorParameters<typeof WebhookReceiver>[0]): Promise<WebhookReceiver> {
  const r = await new WebhookReceiver(behaviour).start();
  receivers.push(r);
  return r;
}

async function endpoint(url: string): Promise<string> {
  const created = await stack.core.webhooks.createEndpoint({ merchant_id: merchant.merchantId, mode: modeCodec.fromWire("test"), url, enabled_events: [] });
  return created.endpoint!.id;
}

async function capturedPayment(): Promise<string> {
  const id = (await createOk(stack.http, merchant.testApiKey)).id as string;
  await stack.admin.simulate(id, "succeed");
  return id;
}

async function eventOf(paymentId: string): Promise<string> {
  const [row] = await stack.sql<{ id: string }>("select id from outbox_events where envelope->'data'->>'id' = $1", [paymentId]);
  return row!.id;
}

/** Waits until every event's delivery to the endpoint succeeded; returns the deliveries. */
async function allDelivered(eventIds: string[], endpointId: string, timeoutMs = 60_000) {
  return eventually(
    async () => {
      const rows = await stack.sql<{ event_id: string; status: string; attempt_count: number }>(
        "select event_id, status, attempt_count from webhook_deliveries where endpoint_id = $1 and event_id = any($2)",
        [endpointId, eventIds],
      );
      return rows.length === eventIds.length && rows.every((r) => r.status === "succeeded") ? rows : undefined;
    },
    timeoutMs,
    `${eventIds.length} deliveries to succeed`,
  );
}

describe("nothing is lost", () => {
  test("the dispatcher SIGKILLed mid-delivery and restarted: the claim returns to the pool and the event arrives", async () => {
    const r = await receiver(() => (r.requests.length === 1 ? "hang" : { status: 200 }));
    const ep = await endpoint(r.url);
    const eventId = await eventOf(await capturedPayment());
    await r.waitFor((rs) => rs.length === 1, 30_000, "the first attempt");
    process.kill(stack.pids().dispatcher!, "SIGKILL");
    await sleep(200);
    await stack.startProcess("dispatcher");
    const [row] = await allDelivered([eventId], ep);
    // The killed attempt was never recorded; the one after the lease ran out was.
    expect(row!.attempt_count).toBe(1);
    expect(r.for(eventId)).toHaveLength(2);
    expect(r.requests[1]!.body.equals(r.requests[0]!.body)).toBe(true);
    await stack.core.webhooks.deleteEndpoint({ id: ep });
  });

  test("nats-server stopped for 30 s while payments are captured, then started: every event is delivered", async () => {
    const r = await receiver();
    const ep = await endpoint(r.url);
    const before = await capturedPayment();
    await allDelivered([await eventOf(before)], ep);
    await nats.stop();
    const during: string[] = [];
    const stopped = Date.now();
    // One a second for 30 s, and at least 20 however long each takes on a slow machine.
    while (Date.now() - stopped < 30_000 || during.length < 20) {
      during.push(await capturedPayment());
      if (Date.now() - stopped < 30_000) await sleep(1_000);
    }
    nats = await startNats();
    const after = await capturedPayment();
    const eventIds = await Promise.all([...during, after].map(eventOf));
    expect(eventIds.length).toBeGreaterThanOrEqual(20);
    await allDelivered(eventIds, ep, 90_000);
    for (const id of eventIds) expect(r.for(id).length).toBeGreaterThanOrEqual(1);
    await stack.core.webhooks.deleteEndpoint({ id: ep });
  }, 180_000);

  test("a core killed right after committing a change, before relaying it: the next core relays it and it is delivered", async () => {
    const r = await receiver();
    const ep = await endpoint(r.url);
    // With NATS away the relay cannot publish, so the committed event is still only in the outbox.
    await nats.stop();
    const paymentId = await capturedPayment();
    const eventId = await eventOf(paymentId);
    const [pending] = await stack.sql<{ published: boolean }>(
      "select not exists (select 1 from outbox_pending p where p.seq = e.seq) as published from outbox_events e where id = $1",
      [eventId],
    );
    expect(pending!.published).toBe(false);
    process.kill(stack.pids().core!, "SIGKILL");
    nats = await startNats();
    await sleep(200);
    await stack.startProcess("core");
    await allDelivered([eventId], ep, 90_000);
    expect(r.for(eventId)).toHaveLength(1);
    expect(JSON.parse(r.for(eventId)[0]!.body.toString()).data.id).toBe(paymentId);
    await stack.core.webhooks.deleteEndpoint({ id: ep });
  }, 120_000);
});

describe("two dispatchers and two cores", () => {
  test("deliver each (event, endpoint) exactly once in normal operation", async () => {
    const second = await stack.addInstance({}, { dispatcher: true });
    const a = await receiver();
    const b = await receiver();
    const epA = await endpoint(a.url);
    const epB = await endpoint(b.url);
    const paymentIds: string[] = [];
    for (let i = 0; i < 40; i++) {
      const http = i % 2 ? second : stack.http;
      const id = (await createOk(http, merchant.testApiKey)).id as string;
      await stack.admin.simulate(id, i % 3 ? "succeed" : "fail");
      paymentIds.push(id);
    }
    const eventIds = await Promise.all(paymentIds.map(eventOf));
    await allDelivered(eventIds, epA);
    await allDelivered(eventIds, epB);
    for (const r of [a, b]) {
      const counts = new Map<string, number>();
      for (const req of r.requests) counts.set(req.eventId!, (counts.get(req.eventId!) ?? 0) + 1);
      expect([...counts.keys()].sort()).toEqual([...eventIds].sort());
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
    }
    const [attempts] = await stack.sql<{ n: string }>("select count(*) as n from webhook_attempts where endpoint_id = any($1)", [[epA, epB]]);
    expect(attempts!.n).toBe("80");
  }, 120_000);
});
