// CPU time per process role, from /proc/<pid>/stat (read by process-cpu.ts), for the benches that compare two shapes running
// side by side on this machine (cluster-bench.ts): every process on the machine is put in a shape
// ("single", "cluster", "bench" for the load generator itself, or none) and a role (haproxy, facade,
// core, dispatcher, nats n1, postgres primary walsender, …), so a run's CPU milliseconds per
// request can be read per role, and what one shape's idle processes burn while the other is loaded.
import * as fs from "node:fs";
import { allPids, commandLine, procStat } from "./process-cpu.ts";

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  cmdline: string;
  ms: number;
}

function readProc(pid: number): Proc | undefined {
  const stat = procStat(pid);
  const cmdline = commandLine(pid);
  // Gone between readdir and read.
  if (!stat || cmdline === undefined) return undefined;
  return { pid, ppid: stat.ppid, comm: stat.comm, cmdline, ms: stat.cpuMs };
}

function allProcs(): Map<number, Proc> {
  const out = new Map<number, Proc>();
  for (const pid of allPids()) {
    const p = readProc(pid);
    if (p) out.set(p.pid, p);
  }
  return out;
}

/** PostgreSQL's process titles ("postgres: walsender paytami 127.0.0.1(…) streaming 0/…") reduced to their kind. */
function postgresKind(cmdline: string): string {
  const title = cmdline.replace(/^postgres:\s*/, "");
  for (const kind of [
    "walsender",
    "walreceiver",
    "walwriter",
    "checkpointer",
    "background writer",
    "autovacuum",
    "logical replication",
    "startup",
    "archiver",
  ]) {
    if (title.startsWith(kind)) return kind;
  }
  return cmdline.startsWith("postgres:") ? "backends" : "postmaster";
}

export type Shape = "single" | "cluster" | "bench";

/**
 * Shape and role of one process. `markers`: a substring of a command line (a data directory, a
 * home) → the shape of that process and its descendants; `benchPid`: the load generator.
 */
function classify(p: Proc, procs: Map<number, Proc>, markers: Record<string, Shape>, benchPid: number): { shape: Shape; role: string } | undefined {
  let shape: Shape | undefined;
  for (let q: Proc | undefined = p; q && !shape; q = procs.get(q.ppid)) {
    for (const [marker, s] of Object.entries(markers)) if (q.cmdline.includes(marker)) shape = s;
    if (!shape && q.pid === benchPid) shape = q === p ? "bench" : "single";
  }
  if (!shape) return undefined;
  const cmd = p.cmdline;
  if (p.comm === "haproxy") return { shape, role: "haproxy" };
  if (p.comm === "nats-server") return { shape, role: `nats ${/-n (\S+)/.exec(cmd)?.[1] ?? ""}`.trim() };
  if (p.comm === "postgres" || cmd.startsWith("postgres")) {
    // Which server: the postmaster's data directory (a backend's parent is its postmaster).
    const postmaster = cmd.startsWith("postgres:") ? procs.get(p.ppid) : p;
    const node = /\/standby\b/.test(postmaster?.cmdline ?? "") ? "standby" : /\/primary\b/.test(postmaster?.cmdline ?? "") ? "primary" : "";
    return { shape, role: `postgres ${node ? `${node} ` : ""}${postgresKind(cmd)}` };
  }
  for (const service of ["core", "facade", "dispatcher"]) if (cmd.includes(`dist/${service}/`)) return { shape, role: service };
  if (cmd.includes("devstack/cluster.ts")) return { shape, role: "npm run cluster (supervisor)" };
  return { shape, role: shape === "bench" ? "bench (autocannon)" : p.comm };
}

export type CpuSnapshot = Map<number, { shape: Shape; role: string; ms: number }>;

export function snapshot(markers: Record<string, Shape>, benchPid = process.pid): CpuSnapshot {
  const procs = allProcs();
  const out: CpuSnapshot = new Map();
  for (const p of procs.values()) {
    const c = classify(p, procs, markers, benchPid);
    if (c) out.set(p.pid, { ...c, ms: p.ms });
  }
  return out;
}

/** CPU ms spent between two snapshots per "shape/role" (a process born in between counts from zero; one that died is lost). */
export function spent(before: CpuSnapshot, after: CpuSnapshot): Map<string, number> {
  const out = new Map<string, number>();
  for (const [pid, a] of after) {
    const key = `${a.shape}/${a.role}`;
    out.set(key, (out.get(key) ?? 0) + a.ms - (before.get(pid)?.ms ?? 0));
  }
  return out;
}

export function loadAverage(): number {
  return Number(fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
}
