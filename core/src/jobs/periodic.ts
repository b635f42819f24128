import type { Logger } from "../../../proto/runtime/logger.ts";
import { jobFailedRuns } from "../metrics.ts";

export interface PeriodicJob {
  /** Stops scheduling and waits up to `graceMs` for a run in progress (one blocked on a dead dependency must not hold shutdown). */
  stop(graceMs?: number): Promise<void>;
  /** Runs the task now, or after the job's wake delay, instead of at the next tick (again after the run in progress, if one is). */
  wake(): void;
}

export interface PeriodicOptions {
  /** A wake runs the task this much later, so that the wakes meanwhile share the run (the outbox relay gathers the commits of a few milliseconds). */
  wakeDelayMs?: number;
  /** While the task keeps failing, how often the log says so again (JOB_FAILURE_LOG_INTERVAL); the first failure is always logged in full. */
  failureReportMs?: number;
  /** The clock the failure report reads (a test's own). */
  now?: () => number;
}

/**
 * Runs `task` every `intervalMs`, never two runs at once in this process
 * (other processes are kept apart by the task's own row locks). A failing run
 * is counted and retried at the next tick; while the job fails, wakes do not run
 * it, so a dependency that is down (NATS electing a stream leader) is tried
 * once per interval, not once per commit that woke the outbox relay.
 */
export function everyInterval(name: string, intervalMs: number, log: Logger, task: () => Promise<unknown>, options: PeriodicOptions = {}): PeriodicJob {
  const { wakeDelayMs = 0 } = options;
  const failures = failureReport(name, log, options);
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
      .then(failures.succeeded, failures.failed)
      .finally(() => {
        running = undefined;
        if (again && !failures.failing) soon();
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
      if (failures.failing) return;
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

/**
 * What the log says of a job's failures. The first failed run after a success is logged in full
 * ("job run failed", with its error); further ones only add to the count, reported again at most
 * once per `failureReportMs` ("job still failing": how many runs, for how long, the last error),
 * and the first success after them says "job recovered". A dependency that is down for a while
 * (a NATS leader election fails every relay pass, ~30 a second) then writes a few lines, not
 * hundreds of stack traces. Every failed run counts in paytami_core_job_failed_runs_total.
 */
function failureReport(
  job: string,
  log: Logger,
  options: PeriodicOptions,
): { failed: (err: unknown) => void; succeeded: () => void; readonly failing: boolean } {
  const { failureReportMs = 30_000, now = Date.now } = options;
  let streak: { since: number; runs: number; reportedAt: number } | undefined;
  return {
    get failing() {
      return streak !== undefined;
    },
    failed: (err) => {
      jobFailedRuns.inc({ job_name: job });
      const at = now();
      if (!streak) {
        streak = { since: at, runs: 1, reportedAt: at };
        log.error({ err, job }, "job run failed");
        return;
      }
      streak.runs++;
      if (at - streak.reportedAt < failureReportMs) return;
      streak.reportedAt = at;
      log.error(
        { job, failed_runs: streak.runs, failing_for_ms: at - streak.since, last_error: err instanceof Error ? err.message : String(err) },
        "job still failing",
      );
    },
    succeeded: () => {
      if (!streak) return;
      log.info({ job, failed_runs: streak.runs, failing_for_ms: now() - streak.since }, "job recovered");
      streak = undefined;
    },
  };
}
