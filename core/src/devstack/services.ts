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
 */
export const SERVICE_V8_FLAGS: Record<ServiceName, string[]> = {
  core: ["--max-semi-space-size=16", "--max-old-space-size=192"],
  facade: ["--max-semi-space-size=4", "--max-old-space-size=96"],
  dispatcher: ["--max-semi-space-size=4", "--max-old-space-size=128"],
};

export function serviceCommand(name: ServiceName): { command: string; args: string[] } {
  return { command: process.execPath, args: [...SERVICE_V8_FLAGS[name], "--enable-source-maps", join(REPO_ROOT, "dist", name, "src", "main.js")] };
}

/**
 * Compiles the services into dist/ (about two seconds) with TypeScript 7, installed as
 * `@typescript/native`: the `typescript` package name is TypeScript 6, kept for typescript-eslint,
 * which needs the JavaScript compiler API that TypeScript 7.0 does not ship. Then the dashboard app
 * the facade serves (dist/dashboard), which is rebuilt only when its sources changed.
 */
export function buildServices(): void {
  execFileSync(process.execPath, [join(REPO_ROOT, "node_modules", "@typescript", "native", "bin", "tsc"), "-p", join(REPO_ROOT, "tsconfig.build.json")], {
    cwd: REPO_ROOT,
    stdio: "inherit",
  });
  buildDashboard();
}
