import { randomBytes } from "node:crypto";
import type { SandboxPolicy } from "../config.ts";
import { fail } from "../domain/errors.ts";
import { ProcessorCallWithdrawn, type BeneficiaryAccount, type CardOutcome, type Processor } from "./processor.ts";

/** DESIGN §4 "Sandbox processor": the test cards and what each one does (any future expiry, any CVC). */
export const SANDBOX_CARDS = {
  "4242424242424242": "succeeds",
  "4000000000000002": "declined",
  "4000000000009995": "insufficient_funds",
  "4000000000003220": "challenge",
  "4000000000003238": "challenge_refused",
  "4000000000000119": "processor_error",
  "4000000000000408": "no_answer",
  "4000000000000507": "late_answer",
} as const;

/**
 * The sandbox issuer's challenges. Its verdict is fixed when it opens one (the card decides) and
 * travels in the reference, which the core stores and never shows, so every core completes it alike;
 * the cardholder's answer can only turn an approving challenge into a refusal, never the reverse.
 */
const CHALLENGE_PREFIX = "sbx_chl_";
const openChallenge = (verdict: "approve" | "refuse"): CardOutcome => ({
  outcome: "challenge",
  reference: `${CHALLENGE_PREFIX}${verdict}_${randomBytes(12).toString("hex")}`,
});

function completeChallenge(reference: string, cardholderConfirmed: boolean): Exclude<CardOutcome, { outcome: "challenge" }> {
  // A reference this issuer never opened is refused too.
  const approves = reference.startsWith(`${CHALLENGE_PREFIX}approve_`);
  return cardholderConfirmed && approves ? { outcome: "authorized" } : { outcome: "declined", reason: "card_declined" };
}

/** How long after the deadline the late-answer card answers anyway: a network whose answer was already on its way. */
const LATE_ANSWER_AFTER_ABORT_MS = 500;

/** Waits for the call's abort (its deadline); never settles without one. */
function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

async function outcomeOf(number: string, signal: AbortSignal): Promise<CardOutcome> {
  switch (SANDBOX_CARDS[number as keyof typeof SANDBOX_CARDS]) {
    case "declined":
      return { outcome: "declined", reason: "card_declined" };
    case "insufficient_funds":
      return { outcome: "declined", reason: "insufficient_funds" };
    case "challenge":
      return openChallenge("approve");
    case "challenge_refused":
      return openChallenge("refuse");
    case "processor_error":
      return fail("processor_unavailable", "The payment processor is unavailable; try again.");
    case "no_answer":
      // Hangs past the deadline and honours its abort, as a network that can drop a request it has not processed.
      await untilAborted(signal);
      throw new ProcessorCallWithdrawn();
    case "late_answer":
      // Ignores the abort and succeeds after the deadline: the core cannot know it will, so it must wait.
      await untilAborted(signal);
      await new Promise((resolve) => setTimeout(resolve, LATE_ANSWER_AFTER_ABORT_MS));
      return { outcome: "authorized" };
    default:
      // Any other valid card succeeds, as in most sandboxes.
      return { outcome: "authorized" };
  }
}

export function sandboxProcessor(policy: SandboxPolicy): Processor {
  return {
    chargeCard: (charge, signal) => outcomeOf(charge.card.number, signal),
    completeChallenge: async (reference, cardholderConfirmed) => completeChallenge(reference, cardholderConfirmed),
    bankTransferAccount: async (): Promise<BeneficiaryAccount> => policy.beneficiary,
  };
}
