import { connect, type NatsConnection } from "@nats-io/transport-node";
import { parentPort, workerData } from "node:worker_threads";
import { natsConnectionOptions } from "../../../proto/event-stream.ts";
import type { ThreadClosed } from "../../../proto/runtime/supervised-thread.ts";
import { lowerThreadPriority } from "../../../proto/runtime/thread-priority.ts";
import type { RequestLogsConfig } from "../config.ts";
import { toRecord, type CapturedRequest } from "./recorder.ts";

// The request-log publisher's own thread (publisher.ts starts it and hands it the records a few at
// a time). Redacting bodies, turning records into JSON, gathering them into NATS batches and
// publishing them is the recorder's whole cost; here it neither takes turns of the event loop that
// answers requests nor adds to that loop's heap.

export interface PublisherThreadData {
  config: RequestLogsConfig;
  natsUrl: string;
}

export type ToPublisherThread = { type: "batch"; batch: CapturedRequest[] } | { type: "close" };
export type DropReason = "nats_down" | "publish_failed" | "too_large" | "unrecordable";
export type FromPublisherThread =
  | { type: "done"; taken: number; published: number; dropped: Partial<Record<DropReason, number>> }
  | { type: "up"; up: boolean }
  | { type: "log"; msg: string; err: string }
  | ThreadClosed;

/** Room left in a NATS message for the `{"records":[…]}` around the records. */
const ENVELOPE_BYTES = 64;

const { config, natsUrl } = workerData as PublisherThreadData;
const port = parentPort!;
const tell = (message: FromPublisherThread) => port.postMessage(message);

const priority = lowerThreadPriority(config.threadNice);
if (priority !== undefined) tell({ type: "log", msg: "request logs: the publisher thread runs at the facade's priority", err: priority });

let nc: NatsConnection | undefined;
let up = false;
const setUp = (value: boolean) => {
  up = value;
  tell({ type: "up", up: value });
};
/** The connection while batches can go out on it (connected, not reconnecting); undefined otherwise. */
const sending = (): NatsConnection | undefined => (nc && up && !nc.isClosed() ? nc : undefined);

// A body crossed the thread boundary as a plain Uint8Array; storedBody reads Buffers.
const asBuffer = (body: unknown) => (body instanceof Uint8Array && !Buffer.isBuffer(body) ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : body);

// Records turned into JSON and waiting for their NATS message: up to config.batchSize of them, or
// what fits in one message, for at most config.flushMs. The request thread hands records over a few
// at a time (RequestLogsConfig.handoffBatch), so the NATS batches are gathered here.
let pending: string[] = [];
let pendingBytes = 0;
let timer: NodeJS.Timeout | undefined;
let published = 0;
let dropped: Partial<Record<DropReason, number>> = {};
const drop = (reason: DropReason, count = 1) => (dropped[reason] = (dropped[reason] ?? 0) + count);

/** Tells the owner what became of the records since the last report (taken: handed over in this batch). */
function report(taken: number): void {
  if (taken === 0 && published === 0 && Object.keys(dropped).length === 0) return;
  tell({ type: "done", taken, published, dropped });
  published = 0;
  dropped = {};
}

/** Publishes what is pending as one message (dropped and counted while NATS is away). */
function send(): void {
  clearTimeout(timer);
  timer = undefined;
  if (pending.length === 0) return;
  const parts = pending;
  pending = [];
  pendingBytes = 0;
  const conn = sending();
  if (!conn) {
    drop("nats_down", parts.length);
    return;
  }
  try {
    conn.publish(config.subject, `{"records":[${parts.join(",")}]}`);
    published += parts.length;
  } catch (err) {
    drop("publish_failed", parts.length);
    tell({ type: "log", msg: "request logs: a batch could not be published", err: String(err) });
  }
}

// What is handed over before the first connection (the facade answers while this thread starts):
// kept, up to REQUEST_LOG_BUFFER records, and taken once connected. After that, NATS being away
// means dropping, as the issue allows.
let early: CapturedRequest[] = [];
let failedToConnect = false;

/** Takes a batch the request thread handed over; `taken` is how many of its records to report as handed over now. */
function take(batch: CapturedRequest[], taken = batch.length): void {
  if (!nc && !failedToConnect) {
    if (early.length + batch.length > config.maxEntries) drop("nats_down", batch.length);
    else early.push(...batch);
    report(taken);
    return;
  }
  const conn = sending();
  if (!conn) {
    drop("nats_down", batch.length);
    report(taken);
    return;
  }
  // Split so no message passes the server's max_payload (bodies make records large).
  const limit = (conn.info?.max_payload ?? 1024 * 1024) - ENVELOPE_BYTES;
  for (const captured of batch) {
    let json: string;
    try {
      json = JSON.stringify(
        toRecord(
          { ...captured, requestBody: asBuffer(captured.requestBody) as Buffer | undefined, responseBody: asBuffer(captured.responseBody) },
          config.bodyCapBytes,
        ),
      );
    } catch (err) {
      // Nothing a client sent may take the facade down: the record is dropped and counted.
      drop("unrecordable");
      tell({ type: "log", msg: "request logs: a request could not be recorded", err: String(err) });
      continue;
    }
    const size = Buffer.byteLength(json) + 1;
    if (size > limit) {
      drop("too_large");
      continue;
    }
    if (pendingBytes + size > limit) send();
    pending.push(json);
    pendingBytes += size;
    if (pending.length >= config.batchSize) send();
  }
  if (pending.length > 0) timer ??= setTimeout(() => (send(), report(0)), config.flushMs);
  report(taken);
}

port.on("message", (message: ToPublisherThread) => {
  if (message.type === "batch") take(message.batch);
  else {
    send();
    report(0);
    void (nc ? nc.drain().catch(() => undefined) : Promise.resolve()).then(() => tell({ type: "closed" }));
  }
});

try {
  nc = await connect(natsConnectionOptions(natsUrl, "paytami-facade-request-logs"));
  setUp(true);
  const kept = early;
  early = [];
  // Reported as handed over when they were kept.
  take(kept, 0);
  for await (const status of nc.status()) {
    if (status.type === "disconnect" || status.type === "reconnecting") {
      if (up) setUp(false);
    } else if (status.type === "reconnect") setUp(true);
  }
} catch (err) {
  failedToConnect = true;
  drop("nats_down", early.length);
  early = [];
  report(0);
  tell({ type: "log", msg: "request logs: NATS connection failed; logs are dropped", err: String(err) });
}
