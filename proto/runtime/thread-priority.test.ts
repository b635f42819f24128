import { getPriority } from "node:os";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { threadsOf } from "../../test/bench/process-cpu.ts";
import { currentThreadId } from "./thread-priority.ts";

/** A thread of this process's nice value as the kernel reports it. */
function niceOf(tid: number): number {
  const thread = threadsOf(process.pid).find((t) => t.tid === tid);
  if (!thread) throw new Error(`no thread ${tid} in ${process.pid}`);
  return thread.nice;
}

async function threadAt(nice: number): Promise<{ tid: number; failed?: string; niceSeen: number }> {
  const worker = new Worker(new URL("./thread-priority-fixture.ts", import.meta.url), { workerData: nice });
  try {
    const said = await new Promise<{ tid: number; failed?: string }>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    // Read while the thread still exists.
    return { ...said, niceSeen: niceOf(said.tid) };
  } finally {
    await worker.terminate();
  }
}

describe("a background thread's priority", () => {
  it("is lowered for that thread alone: the process's own thread keeps its priority", async () => {
    const before = niceOf(currentThreadId());
    const lowered = await threadAt(19);
    expect(lowered.failed).toBeUndefined();
    expect(lowered.tid).not.toBe(currentThreadId());
    expect(lowered.niceSeen).toBe(19);
    expect(niceOf(currentThreadId())).toBe(before);
    expect(getPriority()).toBe(before);
  });

  it("is left as it is at 0", async () => {
    const left = await threadAt(0);
    expect(left.niceSeen).toBe(niceOf(currentThreadId()));
  });
});
