#!/usr/bin/env node
// `paytami`: the operator CLI, an internal gRPC client of the core (connection: ./connect.ts). Run
// as `npx paytami …`: core/bin/paytami.mjs runs this file's compiled JavaScript from dist/, or this
// file itself (Node's type stripping) when dist/ is missing or older than the sources. It loads only
// what the command line needs: the named command's module (./program.ts), and the gRPC client when
// a command runs.
import { CommanderError, type Command } from "commander";
import type { ErrorCode } from "../../../proto/error-catalog.ts";
import type { CoreClient } from "../../../proto/core-client.ts";
import { ResultIsFailure, type CommandContext } from "./command.ts";
import { buildProgram, loadCommands } from "./program.ts";

// Commander shows help as an error when a command's subcommand is missing, with "(outputHelp)" as
// its only message; say which command needed one, and its choices.
function missingCommandMessage(program: Command, argv: string[]): string {
  let command = program;
  const path = [program.name()];
  for (const arg of argv.filter((arg) => !arg.startsWith("-"))) {
    const next = command.commands.find((candidate) => candidate.name() === arg);
    if (!next) break;
    command = next;
    path.push(arg);
  }
  const choices = command.commands.map((sub) => sub.name()).filter((name) => name !== "help");
  return `expected a command: ${path.join(" ")} <${choices.join("|")}>`;
}

type Connector = typeof import("./connect.ts");

async function failure(error: unknown, program: Command, argv: string[]): Promise<{ code: ErrorCode; message: string }> {
  if (error instanceof CommanderError) {
    const message = error.code === "commander.help" ? missingCommandMessage(program, argv) : error.message.replace(/^error: /, "");
    return { code: "validation_error", message };
  }
  // Loaded only on this path: help and usage errors load no contract code.
  const { CoreError } = await import("../../../proto/core-error.ts");
  if (error instanceof CoreError) return { code: error.code, message: error.message };
  return { code: "internal_error", message: error instanceof Error ? error.message : String(error) };
}

async function main(argv: string[]): Promise<number> {
  // --json is global and read before parsing, so commander's own usage errors come out as JSON too.
  const end = argv.includes("--") ? argv.indexOf("--") : argv.length;
  const json = argv.slice(0, end).includes("--json");
  let connector: Connector | undefined;
  let connection: CoreClient | undefined;
  const context: CommandContext = {
    // An action runs after the preAction hook below, which loaded the connector.
    core: () => (connection ??= connector!.connect()),
    print: (output) => process.stdout.write(`${json ? JSON.stringify(output.json) : output.text}\n`),
  };
  const program = buildProgram(json, context, await loadCommands(argv));
  // Help and usage errors never reach an action, and never load the gRPC client.
  program.hook("preAction", async () => {
    connector ??= await import("./connect.ts");
  });
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    // Help (`--help`, `help [command]`) ends commander with exit code 0; its usage errors with 1.
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    if (error instanceof ResultIsFailure) return 1;
    const { code, message } = await failure(error, program, argv);
    if (json) process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
    // Commander has already explained its own errors on stderr.
    else if (!(error instanceof CommanderError)) process.stderr.write(`paytami: ${code}: ${message}\n`);
    return 1;
  } finally {
    connection?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
