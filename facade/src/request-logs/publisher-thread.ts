import { connect, type NatsConnection } from "@nats-io/transport-node";
import { parentPort, workerData } from "node:worker_threads";
import { natsServers } from "../../../proto/event-stream.ts";
import type { ThreadClosed } from "../../../proto/runtime/supervised-thread.ts";
import type { RequestLogsConfig } from "../config.ts";
import { toRecord, type CapturedRequest } from "./recorder.ts";

// The request-log publisher's own thread (publisher.ts starts it and hands it each batch). Redacting
// bodies, turning records into JSON and publishing them is the recorder's whole cost; here it
// neither takes turns of the event loop that answers requests nor adds to that loop's heap.

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

let nc: NatsConnection | undefined;
let up = false;
const setUp = (value: boolean) => {
  up = value;
  tell({ type: "up", up: value });
};

// A body crossed the thread boundary as a plain Uint8Array; storedBody reads Buffers.
const asBuffer = (body: unknown) => (body instanceof Uint8Array && !Buffer.isBuffer(body) ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : body);

function publish(batch: CapturedRequest[]): void {
  const dropped: Partial<Record<DropReason, number>> = {};
  const drop = (reason: DropReason, count = 1) => (dropped[reason] = (dropped[reason] ?? 0) + count);
  let published = 0;
  const conn = nc;
  if (!conn || !up || conn.isClosed()) {
    drop("nats_down", batch.length);
    tell({ type: "done", taken: batch.length, published, dropped });
    return;
  }
  // Split so no message passes the server's max_payload (bodies make records large).
  const limit = (conn.info?.max_payload ?? 1024 * 1024) - ENVELOPE_BYTES;
  let parts: string[] = [];
  let bytes = 0;
  const send = () => {
    if (parts.length === 0) return;
    try {
      conn.publish(config.subject, `{"records":[${parts.join(",")}]}`);
      published += parts.length;
    } catch (err) {
      drop("publish_failed", parts.length);
      tell({ type: "log", msg: "request logs: a batch could not be published", err: String(err) });
    }
    parts = [];
    bytes = 0;
  };
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
    if (bytes + size > limit) send();
    parts.push(json);
    bytes += size;
  }
  send();
  tell({ type: "done", taken: batch.length, published, dropped });
}

port.on("message", (message: ToPublisherThread) => {
  if (message.type === "batch") publish(message.batch);
  else void (nc ? nc.drain().catch(() => undefined) : Promise.resolve()).then(() => tell({ type: "closed" }));
});

try {
  nc = await connect({ servers: natsServers(natsUrl), name: "paytami-facade-request-logs", maxReconnectAttempts: -1, waitOnFirstConnect: true });
  setUp(true);
  for await (const status of nc.status()) {
    if (status.type === "disconnect" || status.type === "reconnecting") {
      if (up) setUp(false);
    } else if (status.type === "reconnect") setUp(true);
  }
} catch (err) {
  tell({ type: "log", msg: "request logs: NATS connection failed; logs are dropped", err: String(err) });
}
