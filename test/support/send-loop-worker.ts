// Runs the dispatcher's SendLoop in a worker thread for dispatcher/src/send-loop.test.ts, against a
// core the test thread plays: every DeliveryService call is posted to the test thread, which
// answers it. A loop that spun would starve only this thread; the test thread keeps running, sees
// the heartbeat stop, and ends the worker. The webhooks themselves are real POSTs to loopback.
import { parentPort, workerData } from "node:worker_threads";
import { CoreError } from "../../proto/core-error.ts";
import type { ErrorCode } from "../../proto/error-catalog.ts";
import type { DueDelivery } from "../../proto/gen/paytami/v1/delivery.ts";
import { createLogger } from "../../proto/runtime/logger.ts";
import { SendLoop, type DeliveryCalls, type SendPolicy } from "../../dispatcher/src/send-loop.ts";

export type CallMethod = keyof DeliveryCalls;

export type ToWorker =
  | { type: "poke" }
  | { type: "stop"; graceMs: number; deadline: number }
  | { type: "reply"; id: number; value?: unknown; error?: { code: ErrorCode; message: string; fromCore: boolean } };

export type FromWorker =
  | { type: "call"; id: number; method: CallMethod; request: unknown; timeoutMs: number | undefined }
  | { type: "tick" }
  | { type: "log"; line: string }
  | { type: "stopped" };

/** How often the worker proves its event loop turns. */
export const TICK_MS = 10;

/** What the test thread hands the worker. */
export interface SendLoopWorkerData {
  sendLoopWorker: true;
  policy: SendPolicy;
}

if (parentPort && (workerData as SendLoopWorkerData | null)?.sendLoopWorker) {
  const port = parentPort;
  const post = (message: FromWorker) => port.postMessage(message);
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let nextId = 0;
  // Bodies cross the thread boundary as Uint8Array; the loop sends them as Buffers.
  const withBuffers = (value: unknown): unknown => {
    const answer = value as { deliveries?: DueDelivery[] };
    return answer.deliveries ? { ...answer, deliveries: answer.deliveries.map((d) => ({ ...d, body: Buffer.from(d.body) })) } : value;
  };
  const call = (method: CallMethod) => (request: unknown, meta?: { timeoutMs?: number | undefined }) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: (value) => resolve(withBuffers(value)), reject });
      post({ type: "call", id, method, request, timeoutMs: meta?.timeoutMs });
    });
  const core = {
    claimDueDeliveries: call("claimDueDeliveries"),
    recordAttempts: call("recordAttempts"),
    releaseDeliveries: call("releaseDeliveries"),
  } as unknown as DeliveryCalls;
  const log = createLogger("dispatcher", { write: (line: string) => post({ type: "log", line }) });
  const loop = new SendLoop(core, log, (workerData as SendLoopWorkerData).policy);
  setInterval(() => post({ type: "tick" }), TICK_MS);
  port.on("message", (message: ToWorker) => {
    if (message.type === "poke") loop.poke();
    else if (message.type === "stop") void loop.stop(message.graceMs, message.deadline).then(() => post({ type: "stopped" }));
    else {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiting?.reject(new CoreError(message.error.code, message.error.message, message.error.fromCore));
      else waiting?.resolve(message.value);
    }
  });
  loop.start();
}
