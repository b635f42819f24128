import { describe, expect, test } from "vitest";
import { withDeadline } from "./deadline.ts";
import { ProcessorCallWithdrawn } from "./processor.ts";

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const untilAborted = (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));

describe("withDeadline", () => {
  test("an answer before the deadline is the answer, and the signal never aborts", async () => {
    let signal!: AbortSignal;
    const outcome = await withDeadline(200, (s) => ((signal = s), after(10, "authorized")));
    expect(outcome).toEqual({ ended: "answered", value: "authorized" });
    await after(250, null);
    expect(signal.aborted).toBe(false);
  });

  test("an error before the deadline is the call's own error", async () => {
    await expect(withDeadline(200, async () => Promise.reject(new Error("card network down")))).rejects.toThrow("card network down");
    await expect(
      withDeadline(200, () => {
        throw new Error("at once");
      }),
    ).rejects.toThrow("at once");
  });

  test("a call withdrawn on its abort ends withdrawn, at the deadline", async () => {
    const started = Date.now();
    const outcome = await withDeadline(100, async (signal) => {
      await untilAborted(signal);
      throw new ProcessorCallWithdrawn();
    });
    expect(outcome).toEqual({ ended: "withdrawn" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  test("a call that ignores its abort, or fails on it without promising anything, is unknown: its late answer is still there", async () => {
    const ignoring = await withDeadline(50, async (signal) => {
      await untilAborted(signal);
      return after(100, "authorized");
    });
    expect(ignoring.ended).toBe("unknown");
    if (ignoring.ended === "unknown") await expect(ignoring.late).resolves.toBe("authorized");
    const failing = await withDeadline(50, async (signal) => {
      await untilAborted(signal);
      throw new Error("socket closed");
    });
    expect(failing.ended).toBe("unknown");
    if (failing.ended === "unknown") await expect(failing.late).rejects.toThrow("socket closed");
  });
});
