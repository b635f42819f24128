// Loaded into a benchmarked process with `--import` (NODE_OPTIONS) when the bench runs
// with BENCH_PROBE=1: watches garbage collection and event-loop delay without touching
// the process's own code. On SIGUSR2 it appends what it saw since the previous SIGUSR2
// as one JSON line to $BENCH_PROBE_DIR/<pid>.jsonl and starts counting afresh.

import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { constants, monitorEventLoopDelay, PerformanceObserver, performance, type EventLoopUtilization } from "node:perf_hooks";

// E.g. "--trace-gc" (not accepted in NODE_OPTIONS); the output goes to the process's log.
if (process.env.BENCH_PROBE_V8_FLAGS) setFlagsFromString(process.env.BENCH_PROBE_V8_FLAGS);

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
};

interface GcKind {
  count: number;
  ms: number;
  maxMs: number;
}

let gc: Record<string, GcKind> = {};
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
let elu: EventLoopUtilization = performance.eventLoopUtilization();
let cpu = process.cpuUsage();
let since = performance.now();

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = KINDS[(entry as { detail?: { kind?: number } }).detail?.kind ?? -1] ?? "other";
    const k = (gc[kind] ??= { count: 0, ms: 0, maxMs: 0 });
    k.count++;
    k.ms += entry.duration;
    k.maxMs = Math.max(k.maxMs, entry.duration);
  }
}).observe({ entryTypes: ["gc"] });

/** Where the resident memory is at the moment (MB): V8's heap by space (committed), off-heap buffers, and the rest (code, stacks, the allocator). */
function memoryMb(): Record<string, number> {
  const m = process.memoryUsage();
  const out: Record<string, number> = {
    rss: m.rss / 2 ** 20,
    heapTotal: m.heapTotal / 2 ** 20,
    heapUsed: m.heapUsed / 2 ** 20,
    external: m.external / 2 ** 20,
    arrayBuffers: m.arrayBuffers / 2 ** 20,
  };
  for (const space of getHeapSpaceStatistics()) out[space.space_name] = space.physical_space_size / 2 ** 20;
  return out;
}

process.on("SIGUSR2", () => {
  const now = performance.now();
  const used = process.cpuUsage(cpu);
  const record = {
    pid: process.pid,
    seconds: (now - since) / 1000,
    cpuMs: (used.user + used.system) / 1000,
    eventLoopUtilization: performance.eventLoopUtilization(elu).utilization,
    // monitorEventLoopDelay reports nanoseconds.
    loopDelayMs: { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
    gc,
    heapUsedMb: process.memoryUsage().heapUsed / 2 ** 20,
    memoryMb: memoryMb(),
  };
  appendFileSync(join(process.env.BENCH_PROBE_DIR ?? ".", `${process.pid}.jsonl`), JSON.stringify(record) + "\n");
  gc = {};
  loopDelay.reset();
  elu = performance.eventLoopUtilization();
  cpu = process.cpuUsage();
  since = now;
});

// BENCH_PROBE_ALLOC=1: V8's sampling heap profiler, counting objects the GCs already collected too,
// so the profile is what each function allocates (not what stays live); written on SIGUSR2 as
// $BENCH_PROBE_DIR/<pid>.alloc.json, bytes by function (self), the largest first.
if (process.env.BENCH_PROBE_ALLOC === "1") {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  const start = () =>
    session.post("HeapProfiler.startSampling", { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await start();
  interface Node {
    callFrame: { functionName: string; url: string; lineNumber: number };
    selfSize: number;
    children: Node[];
  }
  process.on("SIGUSR2", () => {
    void (async () => {
      const { profile } = (await session.post("HeapProfiler.stopSampling")) as { profile: { head: Node } };
      const bytes = new Map<string, number>();
      const walk = (node: Node, path: string[]) => {
        const here = `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.replace(/^.*node_modules\//, "").replace(/^.*\/dist\//, "dist/")}:${node.callFrame.lineNumber + 1}`;
        if (node.selfSize > 0) {
          // Attribute to the frame and its two callers: builtins alone say little.
          const key = [here, ...path.slice(-2).reverse()].join(" ← ");
          bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
        }
        for (const child of node.children) walk(child, [...path, here]);
      };
      walk(profile.head, []);
      const top = [...bytes].sort((a, b) => b[1] - a[1]).slice(0, 60);
      appendFileSync(join(process.env.BENCH_PROBE_DIR ?? ".", `${process.pid}.alloc.json`), JSON.stringify(top) + "\n");
      await start();
    })();
  });
}
