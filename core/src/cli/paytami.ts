#!/usr/bin/env node
// `paytami`: the operator CLI, an internal gRPC client of the core. Run as `npx paytami …` (npx puts
// node_modules/.bin, and with it the pinned Node 24, first on PATH, so this .ts file runs directly).
// Connection: CORE_GRPC_ADDR and PAYTAMI_INTERNAL_TOKEN (the operator's), defaulting from
// $PAYTAMI_HOME/dev.json; CORE_TLS_* when the core serves TLS (proto/core-tls.ts).
import { Command, CommanderError } from "commander";
import type { ErrorCode } from "../../../proto/error-catalog.ts";
import { findPaytamiHome, readDevJson } from "../devstack/dev-json.ts";
import { ResultIsFailure, type CommandContext } from "./command.ts";
import { CoreClient, CoreError } from "../../../proto/core-client.ts";
import { coreTlsEnv } from "../../../proto/core-tls.ts";
import { addBankAccountCommands } from "./bank-accounts.ts";
import { addDeliveryCommands } from "./deliveries.ts";
import { addKeyCommands } from "./keys.ts";
import { addListenCommands } from "./listen.ts";
import { addLinkCommands } from "./links.ts";
import { addBalanceCommands } from "./balances.ts";
import { addLedgerCommands } from "./ledger.ts";
import { addMerchantCommands } from "./merchants.ts";
import { addPayoutCommands } from "./payouts.ts";
import { addRefundCommands } from "./refunds.ts";
import { addSimulateCommands } from "./simulate.ts";
import { addTriggerCommand } from "./trigger.ts";
import { addWebhookCommands } from "./webhooks.ts";

/** Deadline of each core call. */
const TIMEOUT_MS = 15_000;

function connect(): CoreClient {
  const dev = readDevJson(findPaytamiHome());
  const address = process.env.CORE_GRPC_ADDR || dev?.core_grpc || "127.0.0.1:50051";
  const token = process.env.PAYTAMI_INTERNAL_TOKEN || dev?.internal_token;
  return new CoreClient({ address, internalToken: token, tls: coreTlsEnv(process.env, "client"), timeoutMs: TIMEOUT_MS });
}

function buildProgram(json: boolean, context: CommandContext): Command {
  const program = new Command("paytami")
    .description(
      "Paytami operator CLI: a gRPC client of the core at CORE_GRPC_ADDR, authenticated by PAYTAMI_INTERNAL_TOKEN " +
        "(both default from $PAYTAMI_HOME/dev.json, written by `npm start`).",
    )
    .option("--json", 'print exactly one JSON object on stdout: the result, or {"error":{"code","message"}} with exit code 1')
    // Set before the groups are added: commands made with .command() inherit output and exit handling.
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({
      writeOut: (text) => process.stdout.write(text),
      // In --json mode the one JSON object is the whole output: commander's messages (and the help it
      // shows after a usage error) are dropped, and main() reports the CommanderError it throws.
      writeErr: (text) => (json ? true : process.stderr.write(text)),
      outputError: (text, write) => write(`paytami: validation_error: ${text.replace(/^error: /, "")}`),
    });
  addMerchantCommands(program, context);
  addKeyCommands(program, context);
  addSimulateCommands(program, context);
  addWebhookCommands(program, context);
  addDeliveryCommands(program, context);
  addListenCommands(program, context);
  addTriggerCommand(program, context);
  addLinkCommands(program, context);
  addBankAccountCommands(program, context);
  addPayoutCommands(program, context);
  addRefundCommands(program, context);
  addLedgerCommands(program, context);
  addBalanceCommands(program, context);
  return program;
}

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

function failure(error: unknown, program: Command, argv: string[]): { code: ErrorCode; message: string } {
  if (error instanceof CoreError) return { code: error.code, message: error.message };
  if (error instanceof CommanderError) {
    const message = error.code === "commander.help" ? missingCommandMessage(program, argv) : error.message.replace(/^error: /, "");
    return { code: "validation_error", message };
  }
  return { code: "internal_error", message: error instanceof Error ? error.message : String(error) };
}

async function main(argv: string[]): Promise<number> {
  // --json is global and read before parsing, so commander's own usage errors come out as JSON too.
  const end = argv.includes("--") ? argv.indexOf("--") : argv.length;
  const json = argv.slice(0, end).includes("--json");
  let connection: CoreClient | undefined;
  const program = buildProgram(json, {
    core: () => (connection ??= connect()),
    print: (output) => process.stdout.write(`${json ? JSON.stringify(output.json) : output.text}\n`),
  });
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    // Help (`--help`, `help [command]`) ends commander with exit code 0; its usage errors with 1.
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    if (error instanceof ResultIsFailure) return 1;
    const { code, message } = failure(error, program, argv);
    if (json) process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
    // Commander has already explained its own errors on stderr.
    else if (!(error instanceof CommanderError)) process.stderr.write(`paytami: ${code}: ${message}\n`);
    return 1;
  } finally {
    connection?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
