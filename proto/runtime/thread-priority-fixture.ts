// A thread for thread-priority.test.ts: lowers its own priority, says which thread it is, and stays
// (listening on its port) until the test has read its priority and stops it.
import { parentPort, workerData } from "node:worker_threads";
import { currentThreadId, lowerThreadPriority } from "./thread-priority.ts";

const failed = lowerThreadPriority(workerData as number);
parentPort!.on("message", () => undefined);
parentPort!.postMessage({ tid: currentThreadId(), failed });
