import type { Logger } from "../../../proto/runtime/logger.ts";

export interface PeriodicJob {
  /** Stops scheduling and waits up to `graceMs` for a run in progress (one blocked on a dead dependency must not hold shutdown). */
  stop(graceMs?: number): Promise<void>;
  /** Runs the task now instead of at the next tick (again right after the run in progress, if one is). */
  wake(): void;
}

/**
 * Runs `task` every `intervalMs`, never two runs at once in this process
 * (other processes are kept apart by the task's own row locks). A failing run
 * is logged and retried at the next tick.
 */
export function everyInterval(name: string, intervalMs: number, log: Logger, task: () => Promise<unknown>): PeriodicJob {
  let running: Promise<unknown> | undefined;
  let stopped = false;
  // Woken during a run: what woke us may have committed after that run looked, so run once more.
  let again = false;
  const tick = () => {
    if (running || stopped) return;
    again = false;
    running = task()
      .catch((err: unknown) => log.error({ err, job: name }, "job run failed"))
      .finally(() => {
        running = undefined;
        if (again) tick();
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    wake() {
      if (running) again = true;
      else tick();
    },
    async stop(graceMs = 5_000) {
      stopped = true;
      clearInterval(timer);
      if (!running) return;
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise((resolve) => (timeout = setTimeout(resolve, graceMs)))]);
      clearTimeout(timeout);
    },
  };
}
