#!/usr/bin/env node
// `paytami`: the operator CLI, an internal gRPC client of the core. Run as `npx paytami …` (npx puts
// node_modules/.bin, and with it the pinned Node 24, first on PATH, so this .ts file runs directly).
// Connection: CORE_GRPC_ADDR and PAYTAMI_INTERNAL_TOKEN, defaulting from $PAYTAMI_HOME/dev.json.
import type { ErrorCode } from "../../../proto/error-catalog.ts";
import { findPaytamiHome, readDevJson } from "../devstack/dev-json.ts";
import { HelpRequested, UsageError, type CommandGroup, type CommandOutput } from "./command.ts";
import { CoreClient, CoreError } from "../../../proto/core-client.ts";
import { keys } from "./keys.ts";
import { merchants } from "./merchants.ts";
import { simulate } from "./simulate.ts";

const GROUPS: CommandGroup[] = [merchants, keys, simulate];

function usage(groups: CommandGroup[]): string {
  const lines = groups.flatMap((group) => group.usage.map((line) => `  paytami ${line} [--json]`));
  return [
    "Usage:",
    ...lines,
    "",
    "--json prints exactly one JSON object: the result, or {\"error\":{\"code\",\"message\"}} with exit code 1.",
    "Connects to CORE_GRPC_ADDR with PAYTAMI_INTERNAL_TOKEN; both default from $PAYTAMI_HOME/dev.json (written by `npm start`).",
  ].join("\n");
}

/** Deadline of each core call. */
const TIMEOUT_MS = 15_000;

function connect(): CoreClient {
  const dev = readDevJson(findPaytamiHome());
  const address = process.env.CORE_GRPC_ADDR || dev?.core_grpc || "127.0.0.1:50051";
  const token = process.env.PAYTAMI_INTERNAL_TOKEN || dev?.internal_token;
  return new CoreClient({ address, internalToken: token, timeoutMs: TIMEOUT_MS });
}

async function main(argv: string[]): Promise<number> {
  // --json is global: accepted anywhere before a `--`, so even usage errors come out as JSON.
  const end = argv.includes("--") ? argv.indexOf("--") : argv.length;
  const json = argv.slice(0, end).includes("--json");
  const args = argv.filter((arg, index) => !(index < end && arg === "--json"));
  const [groupName, ...rest] = args;

  const group = GROUPS.find((candidate) => candidate.name === groupName);
  let connection: CoreClient | undefined;
  try {
    if (groupName === undefined || groupName === "help" || groupName === "--help" || groupName === "-h") {
      process.stdout.write(`${usage(GROUPS)}\n`);
      return 0;
    }
    if (!group) throw new UsageError(`unknown command "${groupName}"`);
    const output: CommandOutput = await group.run(rest, { core: () => (connection ??= connect()) });
    process.stdout.write(`${json ? JSON.stringify(output.json) : output.text}\n`);
    return 0;
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(`${usage(group ? [group] : GROUPS)}\n`);
      return 0;
    }
    const code: ErrorCode =
      error instanceof CoreError ? error.code : error instanceof UsageError ? "validation_error" : "internal_error";
    const message = error instanceof Error ? error.message : String(error);
    if (json) {
      process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
    } else {
      process.stderr.write(`paytami: ${code}: ${message}\n`);
      if (error instanceof UsageError) process.stderr.write(`${usage(group ? [group] : GROUPS)}\n`);
    }
    return 1;
  } finally {
    connection?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
