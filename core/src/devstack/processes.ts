// Child-process plumbing shared by the dev stack: long-running children with prefixed log lines,
// orderly stop with a SIGKILL fallback, one-shot commands, and readiness polling.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { appendFileSync, closeSync, openSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { logLinesFor } from "./log-lines.ts";
import { linePrefix, SetupError, warn } from "./report.ts";

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Child {
  name: string;
  process: ChildProcess;
  exited: Promise<Exit>;
  hasExited(): boolean;
  // SIGTERM, then SIGKILL after `timeoutMs`. Resolves once the process is gone.
  stop(timeoutMs?: number): Promise<Exit>;
}

export interface ChildOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  // Where output goes: "prefix" streams lines to our stdout as `name | line` (log lines
  // human-readable when that is a terminal, see log-lines.ts), `logFile` is a file path
  // (appended), "inherit" passes our stdio through.
  output: "prefix" | "inherit" | { logFile: string };
}

// Each line formatted, then every resulting line prefixed (a pretty error spans several lines).
function pipeLines(stream: NodeJS.ReadableStream | null, prefix: string, sink: NodeJS.WriteStream): void {
  if (!stream) return;
  const format = logLinesFor(sink);
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  lines.on("line", (line) => sink.write(`${prefix}${format(line).replaceAll("\n", `\n${prefix}`)}\n`));
}

export function startChild(name: string, command: string, args: string[], options: ChildOptions): Child {
  // A log file is the child's own stdout/stderr: each line is in the file as soon as the child
  // writes it (readers such as the test harness see it at once), and none is lost if we exit first.
  const logFd = typeof options.output === "object" ? openSync(options.output.logFile, "a") : undefined;
  const spawnOptions: SpawnOptions = {
    env: options.env ?? process.env,
    cwd: options.cwd,
    // Own process group: a terminal Ctrl-C reaches only the orchestrator, which then stops the
    // children in dependency order instead of all of them dying at once.
    detached: true,
    stdio: options.output === "inherit" ? ["ignore", "inherit", "inherit"] : logFd !== undefined ? ["ignore", logFd, logFd] : ["ignore", "pipe", "pipe"],
  };
  const proc = spawn(command, args, spawnOptions);
  if (logFd !== undefined) closeSync(logFd);
  if (options.output === "prefix") {
    const prefix = linePrefix(name);
    pipeLines(proc.stdout, prefix, process.stdout);
    pipeLines(proc.stderr, prefix, process.stderr);
  }

  let done = false;
  const exited = new Promise<Exit>((resolve) => {
    proc.once("error", (error) => {
      done = true;
      warn(`could not start ${name} (${command}): ${error.message}`);
      resolve({ code: 127, signal: null });
    });
    proc.once("exit", (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });

  return {
    name,
    process: proc,
    exited,
    hasExited: () => done,
    async stop(timeoutMs = 15_000) {
      if (done) return exited;
      proc.kill("SIGTERM");
      const timer = setTimeout(() => {
        if (!done) {
          warn(`${name} did not stop within ${timeoutMs} ms, killing it`);
          proc.kill("SIGKILL");
        }
      }, timeoutMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

// Runs a command to completion, capturing its output (used for initdb, pg_ctl, psql), or appending
// it to `logFile` under a header line (apt-get, whose output is long and rarely interesting).
export function runCommand(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; uid?: number; gid?: number; logFile?: string } = {},
): Promise<CommandResult> {
  let log: number | undefined;
  if (options.logFile) {
    appendFileSync(options.logFile, `\n===== ${new Date().toISOString()} $ ${command} ${args.join(" ")}\n`);
    log = openSync(options.logFile, "a");
  }
  return new Promise((resolve) => {
    const proc = spawn(command, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      uid: options.uid,
      gid: options.gid,
      stdio: log === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", log, log],
    });
    if (log !== undefined) closeSync(log);
    let stdout = "";
    let stderr = "";
    proc.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    proc.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    proc.once("error", (error) => resolve({ code: 127, stdout, stderr: stderr + error.message }));
    proc.once("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr }));
  });
}

export function describeExit(exit: Exit): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}

// Polls `probe` every 100 ms until it returns true (anything else is why it is not ready yet).
// Fails early when `child` exits, so a crashing process is reported at once instead of after the
// whole timeout.
export async function waitUntilReady(what: string, child: Child, timeoutMs: number, probe: () => Promise<true | string>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (child.hasExited()) {
      throw new SetupError(`${child.name} exited (${describeExit(await child.exited)}) before ${what} answered`);
    }
    try {
      const answer = await probe();
      if (answer === true) return;
      last = answer;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(100);
  }
  throw new SetupError(`${what} did not answer within ${timeoutMs} ms (last: ${last})`);
}

// Ready = answers 200.
export function waitForHttp(url: string, child: Child, timeoutMs: number): Promise<void> {
  return waitUntilReady(url, child, timeoutMs, async () => {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.status === 200 || `HTTP ${response.status}`;
  });
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// The pid recorded in `pidFile` when that process is still alive and its command line contains
// every one of `markers` (so a recycled pid is not mistaken for ours); null otherwise.
export function livePidFromFile(pidFile: string, markers: string[]): number | null {
  try {
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    if (!Number.isInteger(pid) || pid <= 0 || !isProcessAlive(pid)) return null;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return markers.every((marker) => cmdline.includes(marker)) ? pid : null;
  } catch {
    return null;
  }
}
