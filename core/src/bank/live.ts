import { fail } from "../domain/errors.ts";
import type { PayoutBank } from "./bank.ts";

/** Live payouts go through the same interface; until a live bank is configured they wait in `processing` (the recovery job retries them). */
export function liveBank(): PayoutBank {
  const unavailable = (): never => fail("processor_unavailable", "Live payouts are not available yet; no live bank is configured.");
  return { submit: async () => unavailable(), outcome: async () => unavailable() };
}
