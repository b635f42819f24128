import { connect } from "@nats-io/transport-node";
import pg from "pg";
import { parentPort, workerData } from "node:worker_threads";
import { natsConnectionOptions } from "../../../proto/event-stream.ts";
import { REQUEST_LOG_QUEUE, requestLogBatch } from "../../../proto/request-log.ts";
import { lowerThreadPriority } from "../../../proto/runtime/thread-priority.ts";
import { databasePoolOptions } from "../db/primary.ts";
import { recordRequestLogs } from "../domain/request-log-insert.ts";
import type { FromWriterThread, ToWriterThread, WriterThreadData } from "./request-log-writer.ts";

// The request-log writer's own thread (request-log-writer.ts starts it). Batches are large (a
// facade sends up to REQUEST_LOG_BATCH records, ~1 KB each, per message): taking them apart,
// checking them and sending them to PostgreSQL here keeps that work and its garbage off the
// thread that answers the gRPC calls, whose event loop and heap it would otherwise share.

const { natsUrl, subject, databaseUrl, connectTimeoutMs, nice } = workerData as WriterThreadData;
const port = parentPort!;
const tell = (message: FromWriterThread) => port.postMessage(message);

const priority = lowerThreadPriority(nice);
if (priority !== undefined) tell({ type: "log", level: "warn", msg: "request logs: the writer thread runs at the core's priority", err: priority });

// One connection is enough (one batch at a time). synchronous_commit=off on it alone: a log row's
// commit does not wait for its WAL to reach disk (a PostgreSQL crash may lose the last fraction of a
// second of logs, which the issue allows), and the payments' own commits keep their guarantee.
const pool = new pg.Pool({
  ...databasePoolOptions(databaseUrl, connectTimeoutMs),
  max: 1,
  application_name: "paytami-core-request-logs",
  options: "-c synchronous_commit=off",
});
pool.on("error", (err) => tell({ type: "log", level: "warn", msg: "request logs: a database connection failed", err: String(err) }));

const nc = await connect(natsConnectionOptions(natsUrl, "paytami-core-request-logs"));
const sub = nc.subscribe(subject, { queue: REQUEST_LOG_QUEUE });
// The server holds the subscription once a flush has come back: only then is a batch published to
// the subject sure to reach this core (the core waits for this before it serves: main.ts).
await nc.flush();
tell({ type: "subscribed" });

port.on("message", (message: ToWriterThread) => {
  // Drain: stop taking batches, finish the one in hand; the loop below then ends.
  if (message.type === "close") void nc.drain().catch(() => undefined);
});

// One batch at a time: the subscription's buffer holds the next ones meanwhile.
for await (const message of sub) {
  let records;
  try {
    const parsed = requestLogBatch.safeParse(message.json());
    if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? "not a batch");
    records = parsed.data.records;
  } catch (err) {
    tell({ type: "records", outcome: "malformed", count: 1 });
    tell({ type: "log", level: "warn", msg: "request logs: a message on the subject is not a batch; dropped", err: String(err) });
    continue;
  }
  try {
    const written = await recordRequestLogs(pool, records);
    tell({ type: "records", outcome: "written", count: written });
    if (written < records.length) tell({ type: "records", outcome: "unknown_key", count: records.length - written });
  } catch (err) {
    // Logs may be lost (issue 17); a database hiccup must not stop the subscription.
    tell({ type: "records", outcome: "failed", count: records.length });
    tell({ type: "log", level: "error", msg: "request logs: a batch could not be written; dropped", err: String(err) });
  }
}
await pool.end();
tell({ type: "closed" });
