// What every command group (merchants, keys, simulate, later links, webhooks, trigger, listen) gets
// from the program, and the option parsers they share. Commander does the parsing; a value it
// cannot take is an InvalidArgumentError, which the program reports as `validation_error`.
import { InvalidArgumentError } from "commander";
import type { CoreConnection } from "./core-client.ts";

export interface CommandOutput {
  json: Record<string, unknown>;
  text: string;
}

export interface CommandContext {
  // Opened on first use, so usage errors and --help never need a reachable core.
  core(): CoreConnection;
  // Each command prints its one result through here: JSON or text, as --json says.
  print(output: CommandOutput): void;
}

export function nonBlank(value: string): string {
  if (value.trim() === "") throw new InvalidArgumentError("It must not be blank.");
  return value;
}

export function commaList(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}
