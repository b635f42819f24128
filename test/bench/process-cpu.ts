// CPU time per process, read from /proc/<pid>/stat (utime + stime), for the benchmarks that say
// where a request's CPU goes. Named groups of pids are snapshotted before and after a run.
import * as fs from "node:fs";

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

/** CPU milliseconds a process has used so far, or undefined once it is gone. */
export function cpuMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
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
  const out: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === parent) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The parent of a process. */
export function parentPid(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** The nats-server listening on a port (found by its command line), if it runs on this machine. */
export function natsServerPid(port: number): number | undefined {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (!args[0]?.endsWith("nats-server")) continue;
      const p = args.indexOf("-p");
      if (p >= 0 && Number(args[p + 1]) === port) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** A process's peak resident memory so far (VmHWM), in kB, or undefined once it is gone. */
export function peakRssKb(pid: number): number | undefined {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
  } catch {
    return undefined;
  }
}
