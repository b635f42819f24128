import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { LogBuffer } from "./log-buffer.ts";

function buffer(policy: { batchSize: number; flushMs: number; maxEntries: number }) {
  const batches: number[][] = [];
  let dropped = 0;
  const b = new LogBuffer<number>(policy, { flush: (batch) => batches.push(batch), dropped: (n) => (dropped += n) });
  return { b, batches, dropped: () => dropped };
}

describe("LogBuffer", () => {
  it("flushes a full batch on the next turn of the event loop, never inside add", async () => {
    const { b, batches } = buffer({ batchSize: 3, flushMs: 60_000, maxEntries: 100 });
    b.add(1);
    b.add(2);
    b.add(3);
    expect(batches).toEqual([]);
    await sleep(0);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it("flushes a partial batch after flushMs", async () => {
    const { b, batches } = buffer({ batchSize: 100, flushMs: 30, maxEntries: 100 });
    b.add(1);
    b.add(2);
    await sleep(5);
    expect(batches).toEqual([]);
    await sleep(60);
    expect(batches).toEqual([[1, 2]]);
  });

  it("holds at most maxEntries: the rest is dropped and counted, and it takes entries again once flushed", async () => {
    const { b, batches, dropped } = buffer({ batchSize: 1_000, flushMs: 60_000, maxEntries: 5 });
    for (let i = 0; i < 12; i++) b.add(i);
    expect(b.size).toBe(5);
    expect(dropped()).toBe(7);
    b.flush();
    expect(batches).toEqual([[0, 1, 2, 3, 4]]);
    b.add(99);
    expect(b.size).toBe(1);
    expect(dropped()).toBe(7);
  });

  it("sends what waits in batches of at most batchSize", () => {
    const { b, batches } = buffer({ batchSize: 2, flushMs: 60_000, maxEntries: 100 });
    // Adds within one turn: the scheduled flush has not run yet.
    for (let i = 0; i < 5; i++) b.add(i);
    b.flush();
    expect(batches).toEqual([[0, 1], [2, 3], [4]]);
  });
});
