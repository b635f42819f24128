import { describe, expect, it } from "vitest";
import type { FromFixture, ToFixture } from "./supervised-thread-fixture.ts";
import { SupervisedThread, threadModule } from "./supervised-thread.ts";

function supervise(closeGraceMs = 5_000) {
  const pongs: number[] = [];
  const errors: string[] = [];
  let exits = 0;
  let starts = 0;
  let respawned = 0;
  const thread = new SupervisedThread<ToFixture, FromFixture>({
    module: threadModule(import.meta.url, "supervised-thread-fixture"),
    name: "fixture",
    workerData: null,
    heapMb: 16,
    respawnAfterMs: 100,
    closeGraceMs,
    onMessage: (message) => message.type === "pong" && pongs.push(message.threadId),
    onError: (err) => errors.push(err.message),
    onExit: () => exits++,
    onStart: () => starts++,
    onRespawn: () => respawned++,
  });
  return { thread, pongs, errors, exits: () => exits, starts: () => starts, respawned: () => respawned };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 5_000; !check(); await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

describe("SupervisedThread", () => {
  it("replaces a thread that exits unasked, after the pause, and the new one answers", async () => {
    const { thread, pongs, exits, starts, respawned } = supervise();
    thread.post({ type: "ping" });
    await until(() => pongs.length === 1, "the first pong");
    const first = thread.threadId;
    thread.post({ type: "exit" });
    await until(() => exits() === 1, "the exit");
    expect(thread.respawns).toBe(0);
    await until(() => thread.respawns === 1, "the replacement");
    expect(starts()).toBe(2);
    expect(respawned()).toBe(1);
    expect(thread.threadId).not.toBe(first);
    thread.post({ type: "ping" });
    await until(() => pongs.length === 2, "the second pong");
    expect(pongs[1]).toBe(thread.threadId);
    await thread.close({ type: "close", answer: true });
  });

  it("reports a thread's uncaught error and replaces it", async () => {
    const { thread, pongs, errors } = supervise();
    thread.post({ type: "throw" });
    await until(() => thread.respawns === 1, "the replacement");
    expect(errors).toEqual(["fixture failed"]);
    thread.post({ type: "ping" });
    await until(() => pongs.length === 1, "a pong from the replacement");
    await thread.close({ type: "close", answer: true });
  });

  it("closes as soon as the thread says it has finished, though it still listens, and never replaces it", async () => {
    const { thread, exits, respawned } = supervise(30_000);
    const started = performance.now();
    await thread.close({ type: "close", answer: true });
    // Well inside the 30 s grace: the close did not wait for the thread to end by itself.
    expect(performance.now() - started).toBeLessThan(10_000);
    await until(() => exits() === 1, "the exit");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(thread.respawns).toBe(0);
    expect(respawned()).toBe(0);
  });

  it("stops a thread that does not finish within the grace", async () => {
    const { thread, exits } = supervise(200);
    await thread.close({ type: "close", answer: false });
    expect(exits()).toBe(1);
    expect(thread.respawns).toBe(0);
  });
});
