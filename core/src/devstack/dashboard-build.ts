// Builds the dashboard app (facade/dashboard, Vite) into dist/dashboard/ unless the build there is
// newer than every file it was made from: `npm test`, `npm start` and `npm run build` all come
// through here, and a fresh build is skipped in milliseconds instead of costing a Vite run.
// `node core/src/devstack/dashboard-build.ts [--force]` is `npm run build:dashboard`.
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..", "..");
export const DASHBOARD_OUT = join(ROOT, "dist", "dashboard");
/** Written by the app's Vite config (recordInputs): every source module the last build read. */
const INPUTS = join(DASHBOARD_OUT, ".vite", "inputs.json");
/** Read by every build, though no module imports them. */
const ALWAYS = ["facade/dashboard/vite.config.ts", "facade/dashboard/index.html", "facade/dashboard/tsconfig.json", "package-lock.json"];

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY; // gone: the build that read it is stale
  }
}

/** Whether dist/dashboard was built after the last change to anything it was built from. */
export function dashboardBuildIsFresh(): boolean {
  let inputs: string[];
  try {
    inputs = JSON.parse(readFileSync(INPUTS, "utf8")) as string[];
  } catch {
    return false;
  }
  const built = mtimeMs(INPUTS);
  return [...ALWAYS.map((file) => join(ROOT, file)), ...inputs.map((file) => join(ROOT, file))].every((file) => mtimeMs(file) < built);
}

/** Runs `vite build` for the app when it is stale (or always with `force`); returns whether it built. */
export function buildDashboard(options: { force?: boolean } = {}): boolean {
  if (!options.force && dashboardBuildIsFresh()) return false;
  execFileSync(
    process.execPath,
    [join(ROOT, "node_modules", "vite", "bin", "vite.js"), "build", "--config", join(ROOT, "facade", "dashboard", "vite.config.ts")],
    {
      cwd: ROOT,
      // Vitest's NODE_ENV=test would give React's development build (nearly twice the size).
      env: { ...process.env, NODE_ENV: "production" },
      stdio: "inherit",
    },
  );
  return true;
}

if (import.meta.main) buildDashboard({ force: process.argv.includes("--force") });
