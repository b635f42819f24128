// Events leave the core only through the outbox: a transition writes the row in
// its transaction, the relay publishes it to JetStream with the event id as
// msgID, and the event data is exactly what GET /v1/payments/{id} returns.
import { jetstream, type JsMsg } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EVENT_STREAM, eventSubject } from "../proto/event-stream.ts";
import { CREATED_AT_RE, createOk, useStack } from "./support/expect.ts";

const getStack = useStack({ dispatcher: true });
let nc: NatsConnection;

beforeAll(async () => {
  nc = await connect({ servers: process.env.NATS_URL! });
});
afterAll(async () => {
  await nc?.drain();
});

/**
 * The events on `subject` whose data is the payment `paymentId` (the stream is shared by
 * parallel test files): one ordered consumer filtered to the subject, read until `want`
 * were found; each fetch waits up to a second for new messages.
 */
async function eventsFor(subject: string, paymentId: string, want: number, timeoutMs = 15_000): Promise<JsMsg[]> {
  const deadline = Date.now() + timeoutMs;
  const consumer = await jetstream(nc).consumers.get(EVENT_STREAM, { filter_subjects: subject });
  const found: JsMsg[] = [];
  while (found.length < want && Date.now() < deadline) {
    for await (const msg of await consumer.fetch({ max_messages: 1_000, expires: 1_000 })) {
      if (msg.json<{ data?: { id?: string } }>().data?.id === paymentId) found.push(msg);
    }
  }
  return found;
}

async function newPayment(key: string): Promise<string> {
  return (await createOk(getStack().http, key)).id;
}

describe("payment events through the outbox and JetStream", () => {
  let key: string;
  beforeAll(async () => {
    key = (await getStack().admin.createMerchant({ name: "Eventos S.A." })).testApiKey;
  });

  test("a captured payment publishes exactly one payment.succeeded whose data equals GET /v1/payments/{id}", async () => {
    const stack = getStack();
    const id = await newPayment(key);
    await stack.admin.simulate(id, "succeed");
    const [msg, ...rest] = await eventsFor(eventSubject("test", "payment.succeeded"), id, 1);
    expect(rest).toHaveLength(0);
    expect(msg).toBeDefined();
    const envelope = msg!.json<{ id: string; type: string; created_at: string; data: unknown }>();
    expect(envelope.id).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(envelope.type).toBe("payment.succeeded");
    expect(envelope.created_at).toMatch(CREATED_AT_RE);
    expect(msg!.headers?.get("Nats-Msg-Id")).toBe(envelope.id);
    const current = await stack.http.getPayment(key, id);
    expect(envelope.data).toEqual(current.json);
    // Key for key in the order of the public object (the event store is json, not key-sorting jsonb).
    expect(Object.keys(envelope).join(",")).toBe("id,type,created_at,data");
    expect(Object.keys(envelope.data as object)).toEqual(Object.keys(current.json as object));
    expect((envelope.data as { status: string }).status).toBe("captured");

    const rows = await stack.sql<{ id: string; published: boolean }>(
      "select id, not exists (select 1 from outbox_pending p where p.seq = e.seq) as published from outbox_events e where envelope->'data'->>'id' = $1",
      [id],
    );
    expect(rows).toEqual([{ id: envelope.id, published: true }]);
  });

  test.each([
    ["fail", "payment.failed", "failed"],
    ["cancel", "payment.canceled", "canceled"],
  ] as const)("simulate %s publishes %s", async (step, type, status) => {
    const stack = getStack();
    const id = await newPayment(key);
    await stack.admin.simulate(id, step);
    const events = await eventsFor(eventSubject("test", type), id, 1);
    expect(events).toHaveLength(1);
    expect(events[0]!.json<{ data: { status: string } }>().data.status).toBe(status);
  });

  test("transitions without an event in the state table (process, authorize, expire, settle) write no outbox row", async () => {
    const stack = getStack();
    const expiring = await newPayment(key);
    await stack.admin.simulate(expiring, "process");
    await stack.admin.simulate(expiring, "authorize");
    await stack.admin.simulate(expiring, "expire");
    const settled = await newPayment(key);
    await stack.admin.simulate(settled, "succeed");
    await stack.admin.simulate(settled, "settle");
    const rows = await stack.sql<{ type: string; pid: string }>(
      "select type, envelope->'data'->>'id' as pid from outbox_events where envelope->'data'->>'id' = any($1) order by seq",
      [[expiring, settled]],
    );
    expect(rows).toEqual([{ type: "payment.succeeded", pid: settled }]);
    expect((await stack.http.getPayment(key, settled)).json).toMatchObject({ status: "available_to_merchant" });
  });

  test("a rejected transition changes nothing and raises nothing", async () => {
    const stack = getStack();
    const id = await newPayment(key);
    await stack.admin.simulate(id, "succeed");
    await expect(stack.admin.simulate(id, "cancel")).rejects.toThrow(/captured/);
    const rows = await stack.sql("select type from outbox_events where envelope->'data'->>'id' = $1", [id]);
    expect(rows).toEqual([{ type: "payment.succeeded" }]);
    expect((await stack.http.getPayment(key, id)).json).toMatchObject({ status: "captured" });
  });

  test("the dispatcher reports healthy with its durable consumer", async () => {
    const stack = getStack();
    const res = await fetch(`${stack.dispatcherHttpUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok" });
  });
});
