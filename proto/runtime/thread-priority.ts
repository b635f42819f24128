import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

// A background thread whose work may wait (the request logs' publisher and writer) runs at a lower
// CPU priority than the threads that answer requests: on a busy machine the scheduler then gives a
// core to a request first and to the logs with what is left, so logging takes idle CPU rather than
// a request's. Linux keeps a nice value per thread, set through the thread's id (setpriority with
// PRIO_PROCESS and a tid changes that thread alone, not its process).

/** The nice value the request-log threads run at unless REQUEST_LOG_THREAD_NICE says otherwise: the lowest priority. */
export const BACKGROUND_THREAD_NICE = 19;

/** REQUEST_LOG_THREAD_NICE (and its like): 0 (no change) to 19 (lowest priority); anything else is refused at start. */
export function threadNiceEnv(source: NodeJS.ProcessEnv, name: string): number {
  const text = (source[name] ?? "").trim();
  if (text === "") return BACKGROUND_THREAD_NICE;
  if (!/^\d{1,2}$/.test(text) || Number(text) > 19) throw new Error(`${name} must be a whole number from 0 (no change) to 19 (lowest priority), got "${text}"`);
  return Number(text);
}

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
