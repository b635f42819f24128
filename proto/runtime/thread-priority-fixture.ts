// A thread for thread-priority.test.ts: lowers its own priority, then says which thread it is.
import { parentPort, workerData } from "node:worker_threads";
import { currentThreadId, lowerThreadPriority } from "./thread-priority.ts";

const failed = lowerThreadPriority(workerData as number);
parentPort!.postMessage({ tid: currentThreadId(), failed });
