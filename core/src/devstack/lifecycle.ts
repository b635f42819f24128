// Start-up and shut-down bookkeeping for the dev-stack entry points: everything started registers
// how to stop it, and a signal (or a child dying) at any moment unwinds exactly what exists, in
// reverse order.
import { describeError, say, warn } from "./report.ts";

export class Interrupted extends Error {
  override name = "Interrupted";
}

export type StopReason = { kind: "signal"; signal: NodeJS.Signals } | { kind: "failure"; message: string };

const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export class Lifecycle {
  reason: StopReason | null = null;
  private readonly cleanups: { name: string; run: () => Promise<void> }[] = [];
  private resolveStopped!: (reason: StopReason) => void;
  // Resolves with the reason once a stop is requested.
  readonly stopped = new Promise<StopReason>((resolve) => (this.resolveStopped = resolve));
  private lastSignalAt = 0;

  constructor() {
    for (const signal of SIGNALS) process.on(signal, () => this.onSignal(signal));
    // If whoever started us dies without telling us (launch.mjs killed hard), stop rather than
    // leave servers running with nobody to stop them.
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid !== parent) this.requestStop({ kind: "signal", signal: "SIGHUP" });
    }, 1_000);
    watch.unref();
  }

  // A terminal Ctrl-C reaches us both directly and forwarded by npm and launch.mjs; the copies
  // arrive together and mean one request.
  private onSignal(signal: NodeJS.Signals): void {
    const now = Date.now();
    const duplicate = now - this.lastSignalAt < 1_500;
    this.lastSignalAt = now;
    if (!this.reason) this.requestStop({ kind: "signal", signal });
    else if (!duplicate) say("still stopping, please wait");
  }

  // Only the first request counts; later ones (a child dying during shutdown) are ignored.
  requestStop(reason: StopReason): void {
    if (this.reason) return;
    this.reason = reason;
    this.resolveStopped(reason);
  }

  onCleanup(name: string, run: () => Promise<void>): void {
    this.cleanups.push({ name, run });
  }

  // Waits for `work`, but gives up as soon as a stop is requested.
  interruptible<T>(work: Promise<T>): Promise<T> {
    if (this.reason) return Promise.reject(new Interrupted());
    return Promise.race([work, this.stopped.then(() => Promise.reject(new Interrupted()))]);
  }

  throwIfStopping(): void {
    if (this.reason) throw new Interrupted();
  }

  async cleanup(): Promise<void> {
    while (this.cleanups.length) {
      const { name, run } = this.cleanups.pop()!;
      try {
        await run();
      } catch (error) {
        warn(`stopping ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}

/** An entry point's whole life: `run` until a signal or a failure, then every cleanup; the exit code. */
export async function runUntilStopped(run: (life: Lifecycle) => Promise<void>): Promise<number> {
  const life = new Lifecycle();
  process.on("uncaughtException", (error) => life.requestStop({ kind: "failure", message: describeError(error) }));
  try {
    await run(life);
  } catch (error) {
    if (!(error instanceof Interrupted)) life.requestStop({ kind: "failure", message: describeError(error) });
  }
  const reason = life.reason!;
  if (reason.kind === "failure") say(`${reason.message}; stopping`);
  else say(`${reason.signal} received, stopping`);
  await life.cleanup();
  say("stopped");
  return reason.kind === "failure" ? 1 : 0;
}
