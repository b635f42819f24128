import { describe, expect, it, vi } from "vitest";
import { createLogger } from "../../../proto/runtime/logger.ts";
import { jobFailedRuns } from "../metrics.ts";
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

  it("a job that keeps failing logs its first failure in full, then at most once per report interval, then its recovery; every failed run is counted", async () => {
    const lines: Record<string, unknown>[] = [];
    const captured = createLogger("test", { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const failedRuns = async () => (await jobFailedRuns.get()).values.find((v) => v.labels.job_name === "flaky")?.value ?? 0;
    const before = await failedRuns();
    let clock = 0;
    let started = 0;
    let finished = 0;
    let release: (fail: boolean) => void = () => {};
    // Each run waits for the test to end it, failed or not; the interval's ticks start the next one.
    const job = everyInterval(
      "flaky",
      2,
      captured,
      () => {
        started++;
        return new Promise<void>((resolve, reject) => (release = (fail) => (fail ? reject(new Error(`down (run ${started})`)) : resolve())));
      },
      { failureReportMs: 30_000, now: () => clock },
    );
    const run = async (at: number, fail = true) => {
      await vi.waitFor(() => expect(started).toBe(finished + 1), { timeout: 20_000, interval: 1 });
      clock = at;
      release(fail);
      await new Promise((resolve) => setImmediate(resolve));
      finished++;
    };
    const said = () => lines.filter((l) => l.job === "flaky").map((l) => l.msg);

    await run(1_000_000);
    expect(said()).toEqual(["job run failed"]);
    expect((lines.at(-1)!.err as { message: string }).message).toBe("down (run 1)");
    // A hundred failures within the interval add no line.
    for (let i = 1; i <= 100; i++) await run(1_000_000 + i * 200);
    expect(said()).toEqual(["job run failed"]);
    await run(1_030_500);
    expect(said()).toEqual(["job run failed", "job still failing"]);
    expect(lines.at(-1)).toMatchObject({ failed_runs: 102, failing_for_ms: 30_500, last_error: "down (run 102)" });
    await run(1_040_000);
    expect(said()).toHaveLength(2);

    await run(1_045_000, false);
    expect(said()).toEqual(["job run failed", "job still failing", "job recovered"]);
    expect(lines.at(-1)).toMatchObject({ failed_runs: 103, failing_for_ms: 45_000 });
    await run(1_046_000, false);
    expect(said()).toHaveLength(3);
    // A new streak starts with a full line again.
    await run(1_047_000);
    expect(said().at(-1)).toBe("job run failed");
    expect((await failedRuns()) - before).toBe(104);
    await job.stop(0);
  });

  it("while a job fails, wakes do not run it (its interval does), and once it succeeds they do again", async () => {
    let runs = 0;
    let fail = true;
    const job = everyInterval("down", 3_600_000, log, async () => {
      runs++;
      if (fail) throw new Error("NATS has no stream leader");
    });
    job.wake();
    await vi.waitFor(() => expect(runs).toBe(1), { timeout: 20_000, interval: 2 });
    await sleep(10);
    for (let i = 0; i < 50; i++) job.wake();
    await sleep(30);
    expect(runs).toBe(1);
    await job.stop();

    // The same with a short interval: the ticks retry, the first success ends the streak, and wakes count again.
    runs = 0;
    const ticking = everyInterval("down-then-up", 20, log, async () => {
      runs++;
      if (fail) throw new Error("NATS has no stream leader");
    });
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(2), { timeout: 20_000, interval: 2 });
    fail = false;
    const recovered = runs;
    await vi.waitFor(() => expect(runs).toBeGreaterThan(recovered), { timeout: 20_000, interval: 2 });
    await sleep(5);
    const now = runs;
    ticking.wake();
    await vi.waitFor(() => expect(runs).toBe(now + 1), { timeout: 20_000, interval: 1 });
    await ticking.stop();
  });
});
