// What the benchmarks read of a process in /proc: CPU time from /proc/<pid>/stat (utime + stime), to
// say where a request's CPU goes (named groups of pids snapshotted before and after a run), its parent
// and command line (to find PostgreSQL's backends and nats-server), and its resident memory.
import * as fs from "node:fs";

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

/** What /proc/<pid>/stat says of a process (or a thread): its command name, parent, CPU milliseconds so far and nice value. */
export interface ProcStat {
  comm: string;
  ppid: number;
  cpuMs: number;
  nice: number;
}

/** A process's /proc/<pid>/stat, or undefined once it is gone. */
export function procStat(pid: number): ProcStat | undefined {
  return readStat(`/proc/${pid}/stat`);
}

/** A stat file (a process's, or one of its threads' under /proc/<pid>/task), or undefined once it is gone. */
function readStat(file: string): ProcStat | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  // The command name is parenthesised and may hold spaces; ppid, utime, stime and nice are fields 4, 14, 15 and 19.
  const close = stat.lastIndexOf(")");
  const fields = stat.slice(close + 2).split(" ");
  return {
    comm: stat.slice(stat.indexOf("(") + 1, close),
    ppid: Number(fields[1]),
    cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
    nice: Number(fields[16]),
  };
}

/** A process's threads (/proc/<pid>/task), each with its kernel id; none once it is gone. A thread's `comm` is its name cut to 15 characters. */
export function threadsOf(pid: number): (ProcStat & { tid: number })[] {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((tid) => {
    const stat = readStat(`/proc/${pid}/task/${tid}/stat`);
    return stat ? [{ ...stat, tid: Number(tid) }] : [];
  });
}

/** CPU milliseconds a process has used so far, or undefined once it is gone. */
export function cpuMs(pid: number): number | undefined {
  return procStat(pid)?.cpuMs;
}

/**
 * CPU milliseconds the threads of `pid` whose name starts with `prefix` have used so far (a Node
 * worker thread's name is its `name` option, cut to 15 characters), 0 when there are none.
 */
export function threadCpuMs(pid: number, prefix: string): number {
  return threadsOf(pid)
    .filter((thread) => thread.comm.startsWith(prefix))
    .reduce((total, thread) => total + thread.cpuMs, 0);
}

/** A process's memory from /proc/<pid>/status, in kB: resident now (VmRSS), its peak (VmHWM), and the anonymous part of the resident (RssAnon: heaps, malloc; the rest is mapped files such as the node binary and ICU data). */
export function memoryKb(pid: number): { rss: number; hwm: number; anon: number } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
  return { rss: kb("VmRSS"), hwm: kb("VmHWM"), anon: kb("RssAnon") };
}

/** A process's resident set (VmRSS) in kB, or undefined once it is gone. */
export function rssKb(pid: number): number | undefined {
  return memoryKb(pid)?.rss;
}

/** A process's command line, its arguments joined by spaces, or undefined once it is gone. */
export function commandLine(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
  } catch {
    return undefined;
  }
}

/** Every process on the machine now. */
export function allPids(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

/** CPU milliseconds of each process in each group. */
export function cpuOf(groups: Record<string, number[]>): Record<string, Map<number, number>> {
  const out: Record<string, Map<number, number>> = {};
  for (const [name, pids] of Object.entries(groups)) {
    out[name] = new Map();
    for (const pid of pids) {
      const ms = cpuMs(pid);
      if (ms !== undefined) out[name].set(pid, ms);
    }
  }
  return out;
}

/**
 * CPU milliseconds each group spent between two snapshots. A process that started in
 * between counts from zero (a new pooled connection's backend); one that ended in
 * between is lost, which undercounts PostgreSQL slightly when pools shrink.
 */
export function cpuSpent(before: Record<string, Map<number, number>>, after: Record<string, Map<number, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, pids] of Object.entries(after)) {
    out[name] = 0;
    for (const [pid, ms] of pids) out[name] += ms - (before[name]?.get(pid) ?? 0);
  }
  return out;
}

/** This process's CPU milliseconds (autocannon runs in it). */
export function selfCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The children of a process (a PostgreSQL postmaster's backends and background workers). */
export function childPids(parent: number): number[] {
  return allPids().filter((pid) => procStat(pid)?.ppid === parent);
}

/** The parent of a process. */
export function parentPid(pid: number): number | undefined {
  return procStat(pid)?.ppid;
}

/**
 * The nats-server of the run: the one listening on the port of the first server `natsUrl` (NATS_URL)
 * names, found by its command line (the harness does not hand its pid over). As a group for `cpuOf`:
 * empty when it does not run on this machine.
 */
export function natsServerPids(natsUrl = process.env.NATS_URL ?? ""): number[] {
  const first = natsUrl.split(",")[0]?.trim();
  if (!first) return [];
  const port = Number(new URL(first).port);
  for (const pid of allPids()) {
    try {
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (!args[0]?.endsWith("nats-server")) continue;
      const p = args.indexOf("-p");
      if (p >= 0 && Number(args[p + 1]) === port) return [pid];
    } catch {
      // gone meanwhile
    }
  }
  return [];
}
