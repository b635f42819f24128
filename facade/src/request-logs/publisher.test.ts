// The publisher against the suite's real nats-server (NATS_URL, provisioned by `npm test`).
import { randomUUID } from "node:crypto";
import { connect } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestLogBatch } from "../../../proto/request-log.ts";
import { createLogger } from "../../../proto/runtime/logger.ts";
import { RequestLogPublisher } from "./publisher.ts";
import type { CapturedRequest } from "./recorder.ts";

const natsUrl = process.env.NATS_URL!;
const subject = `test.request_logs.${randomUUID()}`;
let publisher: RequestLogPublisher;

beforeAll(async () => {
  publisher = new RequestLogPublisher(
    { subject, batchSize: 1_000, flushMs: 50, maxEntries: 1_000, bodyCapBytes: 200_000, threadHeapMb: 32, threadNice: 19, handoffBatch: 4, handoffMs: 5 },
    natsUrl,
    createLogger("test"),
  );
  for (const deadline = Date.now() + 10_000; !publisher.up;) {
    if (Date.now() > deadline) throw new Error(`no NATS connection at ${natsUrl}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
afterAll(async () => {
  await publisher.close();
});

const captured = (i: number, responseBody: unknown): CapturedRequest => ({
  at: Date.now(),
  apiKey: `sk_test_${"a".repeat(32)}`,
  method: "GET",
  path: "/v1/payments",
  status: 200,
  latencyMs: 3,
  requestId: `req-${i}`,
  idempotencyKey: null,
  replayed: false,
  clientIp: "127.0.0.1",
  requestBody: undefined,
  responseBody,
});

describe("RequestLogPublisher", () => {
  it("sends a batch larger than the server's max_payload as several valid messages, losing no record", async () => {
    const nc = await connect({ servers: natsUrl });
    const sub = nc.subscribe(subject);
    const got: { bytes: number; records: string[] }[] = [];
    const reading = (async () => {
      for await (const msg of sub) {
        const batch = requestLogBatch.parse(msg.json());
        got.push({ bytes: msg.data.length, records: batch.records.map((r) => r.request_id) });
        if (got.flatMap((g) => g.records).length === 20) break;
      }
    })();
    await nc.flush();
    // 20 records of ~100 KB each: ~2 MB, over the default 1 MB max_payload.
    for (let i = 0; i < 20; i++) publisher.buffer.add(captured(i, { data: "x".repeat(100_000) }));
    await reading;
    expect(got.length).toBeGreaterThan(1);
    expect(got.every((g) => g.bytes <= 1024 * 1024)).toBe(true);
    expect(got.flatMap((g) => g.records)).toEqual(Array.from({ length: 20 }, (_, i) => `req-${i}`));
    await nc.close();
  });

  it("gathers the small hand-offs from the request thread into NATS batches on its own thread", async () => {
    const nc = await connect({ servers: natsUrl });
    const sub = nc.subscribe(subject);
    const got: string[][] = [];
    const reading = (async () => {
      for await (const msg of sub) {
        got.push(requestLogBatch.parse(msg.json()).records.map((r) => r.request_id));
        if (got.flat().length === 40) break;
      }
    })();
    await nc.flush();
    // 40 records leave the request thread in hand-offs of 4 (handoffBatch): ten of them.
    for (let i = 0; i < 40; i++) publisher.buffer.add(captured(100 + i, { id: i }));
    await reading;
    expect(got.length).toBeLessThan(10);
    expect(got.flat()).toEqual(Array.from({ length: 40 }, (_, i) => `req-${100 + i}`));
    await nc.close();
  });

  it("keeps what the request thread hands over while its thread is still connecting, and sends it once connected", async () => {
    const ownSubject = `test.request_logs.${randomUUID()}`;
    const nc = await connect({ servers: natsUrl });
    const sub = nc.subscribe(ownSubject);
    const got: string[] = [];
    const reading = (async () => {
      for await (const msg of sub) {
        got.push(...requestLogBatch.parse(msg.json()).records.map((r) => r.request_id));
        if (got.length === 30) break;
      }
    })();
    await nc.flush();
    const starting = new RequestLogPublisher(
      {
        subject: ownSubject,
        batchSize: 1_000,
        flushMs: 50,
        maxEntries: 1_000,
        bodyCapBytes: 1_000,
        threadHeapMb: 32,
        threadNice: 19,
        handoffBatch: 4,
        handoffMs: 5,
      },
      natsUrl,
      createLogger("test"),
    );
    try {
      // A facade's first requests: answered before the thread has connected.
      expect(starting.up).toBe(false);
      for (let i = 0; i < 30; i++) starting.buffer.add(captured(200 + i, { id: i }));
      await reading;
      expect(got).toEqual(Array.from({ length: 30 }, (_, i) => `req-${200 + i}`));
    } finally {
      await starting.close();
      await nc.close();
    }
  }, 15_000);
});
