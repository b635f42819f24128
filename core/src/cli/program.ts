// The `paytami` program: its top-level commands, each loaded only when it is named. A command
// group's module pulls in the contract's enums and generated codecs (tens of milliseconds), so
// `paytami --help` lists the commands from the table below and loads none of them; a command named on
// the command line is registered by its module, in the table's place. program.test.ts checks that
// the table says what the modules register (their descriptions are written once, in command.ts).
import { Command } from "commander";
import { DESCRIPTIONS, type CommandContext } from "./command.ts";

export type AddCommands = (program: Command, context: CommandContext) => void;

export interface TopLevelCommand {
  name: string;
  /** As the program's help lists it: the name, then "[options]" and arguments when it has them. */
  term: string;
  description: string;
  load(): Promise<AddCommands>;
}

// In the order `paytami --help` lists them.
export const COMMANDS: readonly TopLevelCommand[] = [
  {
    name: "merchants",
    term: "merchants",
    description: DESCRIPTIONS.merchants,
    load: async () => (await import("./merchants.ts")).addMerchantCommands,
  },
  { name: "keys", term: "keys", description: DESCRIPTIONS.keys, load: async () => (await import("./keys.ts")).addKeyCommands },
  {
    name: "simulate",
    term: "simulate",
    description: DESCRIPTIONS.simulate,
    load: async () => (await import("./simulate.ts")).addSimulateCommands,
  },
  {
    name: "webhooks",
    term: "webhooks",
    description: DESCRIPTIONS.webhooks,
    load: async () => (await import("./webhooks.ts")).addWebhookCommands,
  },
  {
    name: "deliveries",
    term: "deliveries",
    description: DESCRIPTIONS.deliveries,
    load: async () => (await import("./deliveries.ts")).addDeliveryCommands,
  },
  {
    name: "listen",
    term: "listen [options]",
    description: DESCRIPTIONS.listen,
    load: async () => (await import("./listen.ts")).addListenCommands,
  },
  {
    name: "trigger",
    term: "trigger [options] <event-type>",
    description: DESCRIPTIONS.trigger,
    load: async () => (await import("./trigger.ts")).addTriggerCommand,
  },
  { name: "links", term: "links", description: DESCRIPTIONS.links, load: async () => (await import("./links.ts")).addLinkCommands },
  {
    name: "bank-accounts",
    term: "bank-accounts",
    description: DESCRIPTIONS["bank-accounts"],
    load: async () => (await import("./bank-accounts.ts")).addBankAccountCommands,
  },
  {
    name: "payouts",
    term: "payouts",
    description: DESCRIPTIONS.payouts,
    load: async () => (await import("./payouts.ts")).addPayoutCommands,
  },
  { name: "refunds", term: "refunds", description: DESCRIPTIONS.refunds, load: async () => (await import("./refunds.ts")).addRefundCommands },
  { name: "ledger", term: "ledger", description: DESCRIPTIONS.ledger, load: async () => (await import("./ledger.ts")).addLedgerCommands },
  {
    name: "balances",
    term: "balances",
    description: DESCRIPTIONS.balances,
    load: async () => (await import("./balances.ts")).addBalanceCommands,
  },
  { name: "users", term: "users", description: DESCRIPTIONS.users, load: async () => (await import("./users.ts")).addUserCommands },
  { name: "logs", term: "logs", description: DESCRIPTIONS.logs, load: async () => (await import("./logs.ts")).addLogCommands },
  {
    name: "settings",
    term: "settings",
    description: DESCRIPTIONS.settings,
    load: async () => (await import("./settings.ts")).addSettingsCommands,
  },
];

/**
 * The modules of the commands `argv` names. Commander only ever runs, or shows the help of, a
 * command whose name is one of the arguments, so loading every command named anywhere in them (an
 * option's value too: that costs time, not correctness) is enough.
 */
export async function loadCommands(argv: readonly string[]): Promise<Map<string, AddCommands>> {
  const named = COMMANDS.filter((command) => argv.includes(command.name));
  return new Map(await Promise.all(named.map(async (command) => [command.name, await command.load()] as const)));
}

export function buildProgram(json: boolean, context: CommandContext, loaded: ReadonlyMap<string, AddCommands>): Command {
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
  for (const command of COMMANDS) {
    const add = loaded.get(command.name);
    // A command that is not named is never run, only listed: commander reads the words after its
    // name as arguments, so the help shows the term as written.
    if (add) add(program, context);
    else program.command(command.term).description(command.description);
  }
  return program;
}
