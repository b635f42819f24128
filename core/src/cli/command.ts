// What every command group (merchants, keys, simulate, later links, webhooks, trigger, listen) gets
// from the program, and the option parsers they share. Commander does the parsing; a value it
// cannot take is an InvalidArgumentError, which the program reports as `validation_error`.
import { InvalidArgumentError } from "commander";
import type { CoreClient } from "../../../proto/core-client.ts";
import type { EnumCodec } from "../../../proto/enums.ts";

// What `paytami --help` says of each top-level command: written once, read by the program's table
// (program.ts, which lists the commands without loading them) and by each command's module.
export const DESCRIPTIONS = {
  merchants: "merchants and their first API keys",
  keys: "API keys",
  simulate: "move sandbox objects through their states (test-mode payments only; a live payment is refused)",
  webhooks: "webhook endpoints",
  deliveries: "webhook deliveries: one per (event, endpoint), with every attempt",
  listen:
    "forward a merchant's new events to a local URL, signed like real deliveries, until interrupted (one line per event; with --json one JSON object per line)",
  trigger: "fire a real event for a test-mode merchant: builds the fixtures (a payment for payment.*) and runs the real transitions",
  links: "payment links",
  "bank-accounts": "merchants' bank accounts for payouts",
  payouts: "payouts of merchants' available balances to their bank accounts",
  refunds: "refunds of payments",
  ledger: "the double-entry ledger",
  balances: "merchant balances (pending, available, in transit)",
  users: "dashboard users: invites, password resets and who has which role",
  logs: "merchants' API request logs (what the facades recorded, redacted)",
  settings: "merchants' settings: trade name, branding of the hosted pages (colours, logo), embed origins, time zone, language",
} as const;

export interface CommandOutput {
  json: Record<string, unknown>;
  text: string;
}

export interface CommandContext {
  // Opened on first use, so usage errors and --help never need a reachable core.
  core(): CoreClient;
  // Each command prints its one result through here: JSON or text, as --json says.
  print(output: CommandOutput): void;
}

export function nonBlank(value: string): string {
  if (value.trim() === "") throw new InvalidArgumentError("It must not be blank.");
  return value;
}

/** An option parser for a comma-separated list of one contract enum's wire names ("GTQ,USD"). */
export function enumList<E extends number>(codec: EnumCodec<E, string>): (value: string) => E[] {
  return (value) =>
    value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean)
      .map((item) => {
        const parsed = codec.fromWire(item);
        if (!codec.isKnown(parsed)) throw new InvalidArgumentError(`It takes ${codec.wireNames.join(", ")} (got "${item}").`);
        return parsed;
      });
}

/**
 * Thrown by a command that has printed its own result and must still exit 1 (`ledger verify` finding
 * violations prints them, not an {"error"} object: DESIGN §3).
 */
export class ResultIsFailure extends Error {
  override name = "ResultIsFailure";
}
