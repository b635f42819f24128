import type { Logger } from "../../../proto/runtime/logger.ts";

export interface PeriodicJob {
  /** Stops scheduling and waits up to `graceMs` for a run in progress (one blocked on a dead dependency must not hold shutdown). */
  stop(graceMs?: number): Promise<void>;
  /** Runs the task now, or after the job's wake delay, instead of at the next tick (again after the run in progress, if one is). */
  wake(): void;
}

/**
 * Runs `task` every `intervalMs`, never two runs at once in this process
 * (other processes are kept apart by the task's own row locks). A failing run
 * is logged and retried at the next tick. `wakeDelayMs`: a wake runs the task that much later, so
 * that the wakes meanwhile share the run (the outbox relay gathers the commits of a few milliseconds).
 */
export function everyInterval(
  name: string,
  intervalMs: number,
  log: Logger,
  task: () => Promise<unknown>,
  options: { wakeDelayMs?: number } = {},
): PeriodicJob {
  const { wakeDelayMs = 0 } = options;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  // Woken during a run: what woke us may have committed after that run looked, so run once more.
  let again = false;
  // A wake with a delay: the wakes until then are answered by the same run.
  let woken: NodeJS.Timeout | undefined;
  const tick = () => {
    if (running || stopped) return;
    again = false;
    // This run looks after every wake so far, a delayed one included.
    clearTimeout(woken);
    woken = undefined;
    running = task()
      .catch((err: unknown) => log.error({ err, job: name }, "job run failed"))
      .finally(() => {
        running = undefined;
        if (again) soon();
      });
  };
  const soon = () => {
    if (wakeDelayMs === 0) tick();
    else if (!woken) {
      woken = setTimeout(tick, wakeDelayMs);
      woken.unref();
    }
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    wake() {
      if (running) again = true;
      else soon();
    },
    async stop(graceMs = 5_000) {
      stopped = true;
      clearInterval(timer);
      clearTimeout(woken);
      if (!running) return;
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise((resolve) => (timeout = setTimeout(resolve, graceMs)))]);
      clearTimeout(timeout);
    },
  };
}
