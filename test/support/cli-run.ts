// Running the real `paytami` CLI against a test stack, and reading its one-JSON-object answers.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as path from "node:path";
import { expect } from "vitest";
import { REPO_ROOT } from "../../core/src/devstack/services.ts";
import { nodeBinary, type Stack } from "./stack.ts";

const CLI = path.join(REPO_ROOT, "core/bin/paytami.mjs");

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment the CLI runs with against `stack`: this process's without vitest's, the stack's
 * addresses and the operator's token; PAYTAMI_HOME is `home` (by default nowhere: no dev.json).
 */
function cliEnv(stack: Stack, home = "/nonexistent"): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("VITEST") && k !== "NODE_OPTIONS") env[k] = v;
  return { ...env, CORE_GRPC_ADDR: stack.coreGrpcAddr, CORE_HTTP_URL: stack.coreHttpUrl, PAYTAMI_INTERNAL_TOKEN: stack.internalToken, PAYTAMI_HOME: home };
}

/** `paytami ...args` against the stack, with PAYTAMI_HOME `home` and a kill after `timeoutMs`. */
export function runCliWith(stack: Stack, { home, timeoutMs = 30_000 }: { home?: string; timeoutMs?: number }, args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(nodeBinary(), [CLI, ...args], { cwd: REPO_ROOT, env: cliEnv(stack, home), timeout: timeoutMs }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** A long-running `paytami ...args` (`logs tail`, `listen`) against the stack, for the test to read and stop. */
export function spawnCli(stack: Stack, args: string[], home?: string): ChildProcessWithoutNullStreams {
  return spawn(nodeBinary(), [CLI, ...args], { cwd: REPO_ROOT, env: cliEnv(stack, home) });
}

/** `paytami ...args` with the stack's addresses and the operator's token; no dev.json. */
export function runCli(stack: Stack, ...args: string[]): Promise<CliRun> {
  return runCliWith(stack, {}, args);
}

/** The last line of a `--json` run's stdout, parsed, with its exit code (1 when it was killed). */
export async function lastJson(run: Promise<CliRun>): Promise<{ code: number; json: any }> {
  const r = await run;
  return { code: r.code ?? 1, json: JSON.parse(r.stdout.trim().split("\n").at(-1)!) };
}

/** Exactly one JSON object on stdout, nothing on stderr, the exit code given. */
export function oneJson(r: CliRun, code = 0): any {
  expect({ code: r.code, stderr: r.stderr }, r.stdout).toEqual({ code, stderr: "" });
  expect(r.stdout.indexOf("\n")).toBe(r.stdout.length - 1);
  return JSON.parse(r.stdout);
}
