import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

// A background thread whose work may wait (the request logs' publisher and writer) runs at a lower
// CPU priority than the threads that answer requests: on a busy machine the scheduler then gives a
// core to a request first and to the logs with what is left, so logging takes idle CPU rather than
// a request's. Linux keeps a nice value per thread, set through the thread's id (setpriority with
// PRIO_PROCESS and a tid changes that thread alone, not its process).

/** This thread's kernel id: /proc/thread-self links to /proc/<pid>/task/<tid>. */
export function currentThreadId(): number {
  return Number(readlinkSync("/proc/thread-self").split("/").pop());
}

/**
 * Lowers the calling thread's CPU priority to `nice` (0: left as it is). Returns why it could not
 * (not Linux, say), for the thread to report; the thread then runs on at its process's priority.
 */
export function lowerThreadPriority(nice: number): string | undefined {
  if (nice === 0) return undefined;
  try {
    setPriority(currentThreadId(), nice);
    return undefined;
  } catch (err) {
    return String(err);
  }
}
