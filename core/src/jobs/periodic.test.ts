import { describe, expect, it, vi } from "vitest";
import { createLogger } from "../../../proto/runtime/logger.ts";
import { everyInterval } from "./periodic.ts";

const log = createLogger("test");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("everyInterval", () => {
  it("never overlaps runs and keeps going after a failing run", async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const job = everyInterval("t", 5, log, async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      runs++;
      await sleep(20);
      active--;
      if (runs === 1) throw new Error("first run fails");
    });
    // Waits for runs rather than a fixed time: on a loaded machine timers fire late.
    await vi.waitFor(() => expect(runs).toBeGreaterThan(2), { timeout: 20_000, interval: 10 });
    await job.stop();
    expect(maxActive).toBe(1);
  });

  it("stop() does not wait forever for a run stuck on a dead dependency", async () => {
    let started = false;
    const job = everyInterval("stuck", 5, log, () => {
      started = true;
      return new Promise(() => {});
    });
    // stop() must find the run in progress: wait for it to start, not for a time it may not start in.
    await vi.waitFor(() => expect(started).toBe(true), { timeout: 20_000, interval: 5 });
    const outcome = await Promise.race([job.stop(50).then(() => "stopped"), sleep(20_000).then(() => "still waiting")]);
    expect(outcome).toBe("stopped");
  });

  it("wake() runs the task now, and once more after a run it interrupted", async () => {
    let runs = 0;
    let release = () => {};
    const job = everyInterval("woken", 3_600_000, log, () => {
      runs++;
      return new Promise<void>((resolve) => (release = resolve));
    });
    job.wake();
    expect(runs).toBe(1);
    job.wake();
    job.wake();
    expect(runs).toBe(1);
    release();
    await vi.waitFor(() => expect(runs).toBe(2), { timeout: 20_000, interval: 5 });
    release();
    await sleep(20);
    expect(runs).toBe(2);
    await job.stop();
  });

  it("with a wake delay, the wakes of that delay share one run, and a wake during a run waits the delay again", async () => {
    const started: number[] = [];
    let release = () => {};
    const job = everyInterval(
      "gathered",
      3_600_000,
      log,
      () => {
        started.push(Date.now());
        return new Promise<void>((resolve) => (release = resolve));
      },
      { wakeDelayMs: 50 },
    );
    const woke = Date.now();
    job.wake();
    job.wake();
    expect(started).toHaveLength(0);
    await vi.waitFor(() => expect(started).toHaveLength(1), { timeout: 20_000, interval: 5 });
    expect(started[0]! - woke).toBeGreaterThanOrEqual(45);
    job.wake();
    job.wake();
    const released = Date.now();
    release();
    await vi.waitFor(() => expect(started).toHaveLength(2), { timeout: 20_000, interval: 5 });
    expect(started[1]! - released).toBeGreaterThanOrEqual(45);
    release();
    await sleep(120);
    expect(started).toHaveLength(2);
    await job.stop();
  });

  it("stop() cancels a delayed wake", async () => {
    let runs = 0;
    const job = everyInterval("cancelled", 3_600_000, log, async () => void runs++, { wakeDelayMs: 30 });
    job.wake();
    await job.stop();
    await sleep(80);
    expect(runs).toBe(0);
  });
});
