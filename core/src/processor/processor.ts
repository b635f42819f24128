import type { Currency, Mode } from "../config.ts";
import type { CardDetails } from "./card.ts";

// The card network and the banks, seen from the core. Every call is external I/O: callers make it
// outside any database transaction (claim the attempt in one short transaction, call, record the
// result in another), so no row lock is ever held while a processor answers.
//
// Every call gets a deadline (PROCESSOR_CALL_TIMEOUT, processor/deadline.ts) as an AbortSignal. A
// processor that, when the signal aborts, can promise the call charged nothing and never will
// rejects at once with ProcessorCallWithdrawn; then the payment is free for another attempt. Any
// other way past the deadline (no answer yet, another error) is an unknown outcome: the call may
// still charge, so the payment is held for its answer and never attempted a second time meanwhile.

export interface CardCharge {
  /** The processor's idempotency key for this attempt: one attempt is charged at most once. */
  attemptId: string;
  paymentId: string;
  amount: bigint;
  currency: Currency;
  card: CardDetails;
}

/** What the processor answered; a processor that cannot answer throws `processor_unavailable`. */
export type CardOutcome =
  | { outcome: "authorized" }
  | { outcome: "declined"; reason: "card_declined" | "insufficient_funds" }
  /** The issuer asks the cardholder to confirm; `reference` is the processor's name for that challenge. */
  | { outcome: "challenge"; reference: string };

export interface BeneficiaryAccount {
  bank_name: string;
  account_name: string;
  account_number: string;
}

export interface Processor {
  chargeCard(charge: CardCharge, signal: AbortSignal): Promise<CardOutcome>;
  /**
   * The end of the challenge step `chargeCard` opened as `reference`. `cardholderConfirmed` is the
   * cardholder's answer in the issuer's step (the sandbox's buttons on the page); the outcome is the
   * processor's: an issuer that refuses the challenge declines however the cardholder answered.
   */
  completeChallenge(reference: string, cardholderConfirmed: boolean, signal: AbortSignal): Promise<Exclude<CardOutcome, { outcome: "challenge" }>>;
  /** Where the customer sends a bank transfer; the transfer's arrival is reported later (sandbox: a job). */
  bankTransferAccount(currency: Currency, signal: AbortSignal): Promise<BeneficiaryAccount>;
}

/**
 * A processor's promise, on its call's abort, that the call charged nothing and never will: the
 * request never left, or the network confirmed it was dropped. Only this frees a payment whose
 * call passed its deadline.
 */
export class ProcessorCallWithdrawn extends Error {
  constructor(message = "The processor withdrew the call; nothing was charged.") {
    super(message);
    this.name = "ProcessorCallWithdrawn";
  }
}

export type Processors = Partial<Record<Mode, Processor>>;
