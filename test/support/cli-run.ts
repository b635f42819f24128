// Running the real `paytami` CLI against a test stack, and reading its one-JSON-object answers.
import { execFile } from "node:child_process";
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

/** `paytami ...args` with the stack's addresses and the operator's token; no dev.json (PAYTAMI_HOME points nowhere). */
export function runCli(stack: Stack, ...args: string[]): Promise<CliRun> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("VITEST") && k !== "NODE_OPTIONS") env[k] = v;
  Object.assign(env, {
    CORE_GRPC_ADDR: stack.coreGrpcAddr,
    CORE_HTTP_URL: stack.coreHttpUrl,
    PAYTAMI_INTERNAL_TOKEN: stack.internalToken,
    PAYTAMI_HOME: "/nonexistent",
  });
  return new Promise((resolve) => {
    execFile(nodeBinary(), [CLI, ...args], { cwd: REPO_ROOT, env, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** Exactly one JSON object on stdout, nothing on stderr, the exit code given. */
export function oneJson(r: CliRun, code = 0): any {
  expect({ code: r.code, stderr: r.stderr }, r.stdout).toEqual({ code, stderr: "" });
  expect(r.stdout.indexOf("\n")).toBe(r.stdout.length - 1);
  return JSON.parse(r.stdout);
}
