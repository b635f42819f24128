import { fail } from "../domain/errors.ts";
import type { Processor } from "./processor.ts";

/** Live mode goes through the same interface; until a live processor is configured, every call is refused. */
export function liveProcessor(): Processor {
  const unavailable = (): never => fail("processor_unavailable", "Live payments are not available yet; no live processor is configured.");
  return { chargeCard: async () => unavailable(), completeChallenge: async () => unavailable(), bankTransferAccount: async () => unavailable() };
}
