// The command table stands in for the command modules in `paytami --help`: it must say exactly what
// they register, or the help would change with what the command line happens to load.
import type { Command } from "commander";
import { describe, expect, test } from "vitest";
import type { CommandContext } from "./command.ts";
import { buildProgram, COMMANDS, loadCommands, type AddCommands } from "./program.ts";

// Registering commands never calls the context; running one is test/cli.test.ts's part.
const context: CommandContext = {
  core: () => {
    throw new Error("no command runs here");
  },
  print: () => {},
};

async function everyCommand(): Promise<Map<string, AddCommands>> {
  return new Map(await Promise.all(COMMANDS.map(async (command) => [command.name, await command.load()] as const)));
}

function helpOf(program: Command, path: string[]): string {
  let command = program;
  for (const name of path) command = command.commands.find((sub) => sub.name() === name)!;
  return command.helpInformation();
}

describe("the top-level commands", () => {
  test("paytami --help reads the same from the table as from the loaded modules", async () => {
    const listed = buildProgram(false, context, new Map());
    const loaded = buildProgram(false, context, await everyCommand());
    expect(listed.helpInformation()).toBe(loaded.helpInformation());
    expect(listed.commands.map((command) => command.name())).toEqual(loaded.commands.map((command) => command.name()));
  });

  test.each(COMMANDS.map((command) => [command.name, command] as const))("%s: its module adds that one command, as the table lists it", async (_, command) => {
    const program = buildProgram(false, context, new Map([[command.name, await command.load()]]));
    const added = program.commands.filter((sub) => sub.name() === command.name);
    expect(added).toHaveLength(1);
    expect(program.commands).toHaveLength(COMMANDS.length);
    const help = program.createHelp();
    expect({ term: help.subcommandTerm(added[0]!), description: help.subcommandDescription(added[0]!) }).toEqual({
      term: command.term,
      description: command.description,
    });
  });

  test("a command's own help is its module's, whatever else the command line names", async () => {
    const all = buildProgram(false, context, await everyCommand());
    for (const command of COMMANDS) {
      const alone = buildProgram(false, context, await loadCommands([command.name, "--help"]));
      expect(helpOf(alone, [command.name])).toBe(helpOf(all, [command.name]));
    }
  });
});

describe("loadCommands", () => {
  test("--help and usage mistakes load no command module", async () => {
    expect([...(await loadCommands(["--help"])).keys()]).toEqual([]);
    expect([...(await loadCommands(["--json", "nope"])).keys()]).toEqual([]);
  });

  test("loads every command named, wherever it is on the command line", async () => {
    expect([...(await loadCommands(["--json", "keys", "create", "--merchant", "mer_1"])).keys()]).toEqual(["keys"]);
    expect([...(await loadCommands(["help", "simulate", "payment"])).keys()]).toEqual(["simulate"]);
    expect([...(await loadCommands(["listen", "--forward-to", "links"])).keys()].sort()).toEqual(["links", "listen"]);
  });
});
