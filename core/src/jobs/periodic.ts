import type { Logger } from "../logger.ts";

export interface PeriodicJob {
  stop(): Promise<void>;
}

/**
 * Runs `task` every `intervalMs`, never two runs at once in this process
 * (other processes are kept apart by the task's own row locks). A failing run
 * is logged and retried at the next tick.
 */
export function everyInterval(name: string, intervalMs: number, log: Logger, task: () => Promise<unknown>): PeriodicJob {
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = task()
      .catch((err: unknown) => log.error({ err, job: name }, "job run failed"))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
