import type { Mode } from "../config.ts";
import type { PayoutBank } from "./bank.ts";
import { liveBank } from "./live.ts";
import { sandboxBank } from "./sandbox.ts";

// Not in bank.ts: the banks import that file for its interface, so choosing among them there would
// be an import cycle.

/** The bank of a payout's mode: the sandbox in test mode, the live one (unconfigured today) in live mode. */
export function bankFor(mode: Mode): PayoutBank {
  return mode === "test" ? sandboxBank() : liveBank();
}
