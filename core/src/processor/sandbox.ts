import type { SandboxPolicy } from "../config.ts";
import { fail } from "../domain/errors.ts";
import type { BeneficiaryAccount, CardOutcome, Processor } from "./processor.ts";

/** DESIGN §4 "Sandbox processor": the test cards and what each one does (any future expiry, any CVC). */
export const SANDBOX_CARDS = {
  "4242424242424242": "succeeds",
  "4000000000000002": "declined",
  "4000000000009995": "insufficient_funds",
  "4000000000003220": "challenge",
  "4000000000000119": "processor_error",
} as const;

function outcomeOf(number: string): CardOutcome {
  switch (SANDBOX_CARDS[number as keyof typeof SANDBOX_CARDS]) {
    case "declined":
      return { outcome: "declined", reason: "card_declined" };
    case "insufficient_funds":
      return { outcome: "declined", reason: "insufficient_funds" };
    case "challenge":
      return { outcome: "challenge" };
    case "processor_error":
      return fail("processor_unavailable", "The payment processor is unavailable; try again.");
    default:
      // Any other valid card succeeds, as in most sandboxes.
      return { outcome: "authorized" };
  }
}

export function sandboxProcessor(policy: SandboxPolicy): Processor {
  return {
    chargeCard: async (charge) => outcomeOf(charge.card.number),
    completeChallenge: async (_attemptId, passed) => (passed ? { outcome: "authorized" } : { outcome: "declined", reason: "card_declined" }),
    bankTransferAccount: async (): Promise<BeneficiaryAccount> => policy.beneficiary,
  };
}
