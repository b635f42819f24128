import { describe, expect, it } from "vitest";
import { createLogger } from "../logger.ts";
import { everyInterval } from "./periodic.ts";

const log = createLogger("test");

describe("everyInterval", () => {
  it("never overlaps runs and keeps going after a failing run", async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const job = everyInterval("t", 5, log, async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      runs++;
      await new Promise((r) => setTimeout(r, 20));
      active--;
      if (runs === 1) throw new Error("first run fails");
    });
    await new Promise((r) => setTimeout(r, 150));
    await job.stop();
    expect(maxActive).toBe(1);
    expect(runs).toBeGreaterThan(2);
  });

  it("stop() does not wait forever for a run stuck on a dead dependency", async () => {
    const job = everyInterval("stuck", 5, log, () => new Promise(() => {}));
    await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    await job.stop(50);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
