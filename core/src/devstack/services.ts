// How the three processes are launched, in one place: `npm run core|facade|
// dispatcher`, the dev stack, the test harness and the benchmark all run the
// compiled JavaScript in dist/ with these V8 flags.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { buildDashboard } from "./dashboard-build.ts";

export type ServiceName = "core" | "facade" | "dispatcher";

export const REPO_ROOT = join(import.meta.dirname, "..", "..", "..");

/**
 * Heap bounds keep resident memory near the live set instead of letting V8
 * grow the heap lazily under load (facade ≤ 150 MB, core ≤ 250 MB targets).
 * The same flags appear in package.json's scripts.
 *
 * The semi-space (the young generation is two of them plus V8's own reserve) trades scavenges
 * against resident memory, measured at c=32 with `BENCH_PROBE=1` (test/bench/HISTORY.md, issue 20):
 * the facade allocates ~130 KB per request, so at 4 MB it scavenged 16–24 times a second and
 * promoted what was in flight into old space, a major GC about every second (the facade's longest
 * pauses, 40–60 ms on the loaded machine); at 8 MB its GC time per second fell by a third for
 * ~7 MB more committed. The core allocates less and its old space holds the ORM's metadata: at
 * 16 MB its young generation alone held ~30 MB resident; at 8 MB it holds ~15 MB, for slightly
 * more GC time (≈ +10 ms per second of load).
 *
 * `--v8-pool-size=1`: one V8 background thread (concurrent marking, parallel scavenges, sweeping,
 * optimizing compiles) per process instead of Node's four. On a host where the facade, the core
 * and PostgreSQL share two cores, each process's four helpers competed with the event loops for
 * them, and a request waited its turn behind them at every hop: POST /v1/payments at c=32, p99
 * 35 → 25 ms (eight alternating rounds, lower in every one), throughput and CPU per request
 * unchanged; the dispatcher's webhook lag p99 at 200 events/s 80–86 → 58–66 ms, deliveries/s the
 * same (test/bench/HISTORY.md, session 37). A host with cores to spare for a process can raise it
 * through <NAME>_V8_FLAGS.
 */
export const SERVICE_V8_FLAGS: Record<ServiceName, string[]> = {
  core: ["--max-semi-space-size=8", "--max-old-space-size=192", "--v8-pool-size=1"],
  facade: ["--max-semi-space-size=8", "--max-old-space-size=96", "--v8-pool-size=1"],
  dispatcher: ["--max-semi-space-size=4", "--max-old-space-size=128", "--v8-pool-size=1"],
};

/** The V8 flags a service is launched with: `<NAME>_V8_FLAGS` (e.g. CORE_V8_FLAGS="--max-semi-space-size=8 --max-old-space-size=192") in place of the defaults above. */
export function serviceV8Flags(name: ServiceName, env: NodeJS.ProcessEnv = process.env): string[] {
  const override = env[`${name.toUpperCase()}_V8_FLAGS`]?.trim();
  return override ? override.split(/\s+/) : SERVICE_V8_FLAGS[name];
}

export function serviceCommand(name: ServiceName): { command: string; args: string[] } {
  return { command: process.execPath, args: [...serviceV8Flags(name), "--enable-source-maps", join(REPO_ROOT, "dist", name, "src", "main.js")] };
}

/**
 * Compiles the services into dist/ (about two seconds), and the SDK into facade/sdk/dist, with TypeScript 7, installed as
 * `@typescript/native`: the `typescript` package name is TypeScript 6, kept for typescript-eslint,
 * which needs the JavaScript compiler API that TypeScript 7.0 does not ship. Then the dashboard app
 * the facade serves (dist/dashboard), which is rebuilt only when its sources changed.
 */
export function buildServices(): void {
  // The SDK too (facade/sdk/dist): its tests load the package as a merchant would.
  for (const project of ["tsconfig.build.json", "facade/sdk/tsconfig.json"]) {
    execFileSync(process.execPath, [join(REPO_ROOT, "node_modules", "@typescript", "native", "bin", "tsc"), "-p", join(REPO_ROOT, project)], {
      cwd: REPO_ROOT,
      stdio: "inherit",
    });
  }
  buildDashboard();
}
