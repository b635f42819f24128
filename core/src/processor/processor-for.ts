import type { Mode } from "../config.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { liveProcessor } from "./live.ts";
import type { Processor } from "./processor.ts";
import { sandboxProcessor } from "./sandbox.ts";

// Not in processor.ts: the processors import that file for its interface, so choosing among them
// there would be an import cycle.

/** The processor of a payment's mode: the sandbox in test mode, the live one (unconfigured today) in live mode. */
export function processorFor(deps: Pick<CoreDeps, "config" | "processors">, mode: Mode): Processor {
  const override = deps.processors?.[mode];
  if (override) return override;
  return mode === "test" ? sandboxProcessor(deps.config.sandbox) : liveProcessor();
}
