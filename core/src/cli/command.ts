// The shape every command group (merchants, keys, simulate, later links, webhooks, trigger,
// listen) implements, plus argument parsing that turns mistakes into usage errors.
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import type { CoreClient } from "../../../proto/core-client.ts";

export interface CommandContext {
  // Opened on first use, so usage errors never need a reachable core.
  core(): CoreClient;
}

export interface CommandOutput {
  json: Record<string, unknown>;
  text: string;
}

export interface CommandGroup {
  name: string;
  usage: string[];
  run(args: string[], context: CommandContext): Promise<CommandOutput>;
}

export class UsageError extends Error {
  override name = "UsageError";
}

export class HelpRequested extends Error {
  override name = "HelpRequested";
}

type Values<T extends ParseArgsOptionsConfig> = { [K in keyof T]?: T[K]["type"] extends "boolean" ? boolean : string };

export function parseCommand<T extends ParseArgsOptionsConfig>(
  args: string[],
  options: T,
): { values: Values<T>; positionals: string[] } {
  if (args.includes("--help") || args.includes("-h")) throw new HelpRequested();
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: parsed.values as Values<T>, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === "") throw new UsageError(`${flag} is required`);
  return value;
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], what: string): T {
  if (value === undefined || !(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${what} must be one of ${allowed.join(", ")}${value === undefined ? "" : ` (got "${value}")`}`);
  }
  return value as T;
}

export function commaList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

export function expectPositionals(positionals: string[], names: string[]): string[] {
  if (positionals.length !== names.length) {
    throw new UsageError(`expected ${names.join(" ")}, got ${positionals.length ? positionals.join(" ") : "nothing"}`);
  }
  return positionals;
}
