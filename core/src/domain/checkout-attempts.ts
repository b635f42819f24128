import { randomBytes } from "node:crypto";
import { db } from "../db/orm.ts";
import type { Currency } from "../config.ts";
import { readCard, type CardSummary } from "../processor/card.ts";
import { processorFor, type BeneficiaryAccount, type CardOutcome } from "../processor/processor.ts";
import type { PublicCaller } from "./caller.ts";
import { admitCardSubmit } from "./card-submit-limit.ts";
import { getHostedPayment, type HostedPayment } from "./checkout.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { lockPayable, notPayable, type LockedPayment } from "./payment-lock.ts";
import { authorize, cancel, capture, failPayment, startProcessing } from "./payment-states.ts";
import { transitionPayment, type TransitionStep } from "./payment-transitions.ts";
import { atomically, type Tx } from "./unit-of-work.ts";

// The customer's actions on the hosted page. Each one that calls the processor does it in three
// steps, so no row lock is held while the processor answers: claim the attempt in one short
// transaction (the payment is locked, checked payable, and leased with `attempt_expires_at`, which keeps
// every other attempt, cancel and expiry off it), call the processor with no transaction open,
// record the outcome and free the lease in another short transaction.

export type CheckoutNext = "redirect_success" | "redirect_cancel" | "challenge" | "wait";

export interface CheckoutOutcome {
  payment: HostedPayment;
  next: CheckoutNext;
  card?: CardSummary | undefined;
}

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
  holder_name: string;
}

function requireNoTransaction(tx: Tx): void {
  // A transaction here would hold the payment's row lock across the processor call.
  if (tx.isInTransaction()) throw new Error("checkout attempts call the processor and must not run inside a transaction");
}

/** Claims the payment for one processor attempt, or refuses it; the claim commits before this returns. */
async function claimAttempt(deps: CoreDeps, tx: Tx, paymentId: string, check: (payment: LockedPayment) => void): Promise<LockedPayment> {
  const claimed = await atomically(tx, async (inner) => {
    const locked = await lockPayable(deps, inner, paymentId);
    if (!locked.value.payable) return locked;
    check(locked.value.payment);
    await db(inner)
      .updateTable("payments")
      .set({ attempt_expires_at: new Date(deps.now().getTime() + deps.config.processorAttemptLeaseMs) })
      .where("id", "=", paymentId)
      .execute();
    return locked;
  });
  if (!claimed.payable) return notPayable(claimed.status);
  return claimed.payment;
}

/** Frees the attempt lease after a processor call that changed nothing (processor unavailable). */
async function releaseAttempt(tx: Tx, paymentId: string): Promise<void> {
  await db(tx).updateTable("payments").set({ attempt_expires_at: null }).where("id", "=", paymentId).execute();
}

/** Calls the processor; anything but an answer or a catalog error is the processor being unavailable. */
async function callProcessor<T>(deps: CoreDeps, tx: Tx, paymentId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    await releaseAttempt(tx, paymentId);
    if (error instanceof DomainError) throw error;
    deps.log.error({ err: error, payment_id: paymentId }, "processor call failed");
    throw new DomainError("processor_unavailable", "The payment processor is unavailable; try again.");
  }
}

/** The steps of the state table an outcome takes, and where the page goes next. */
function afterOutcome(outcome: CardOutcome): { steps: TransitionStep[]; next: CheckoutNext; challengePending: boolean } {
  switch (outcome.outcome) {
    case "authorized":
      return { steps: [authorize, capture], next: "redirect_success", challengePending: false };
    case "declined":
      return { steps: [failPayment], next: "redirect_cancel", challengePending: false };
    case "challenge":
      // A challenge after an earlier one was abandoned: the payment is processing already.
      return { steps: [(p, at) => (p.status === "processing" ? null : startProcessing(p, at))], next: "challenge", challengePending: true };
  }
}

async function recordOutcome(deps: CoreDeps, tx: Tx, paymentId: string, outcome: CardOutcome, card: CardSummary | null): Promise<CheckoutNext> {
  const { steps, next, challengePending } = afterOutcome(outcome);
  try {
    return await recordTransition(deps, tx, paymentId, steps, next, challengePending, card);
  } catch (error) {
    // Refused by a rule the table does not hold (a link at its max_payments): the payment stays as it was, free for another attempt or its expiry.
    await releaseAttempt(tx, paymentId);
    throw error;
  }
}

async function recordTransition(
  deps: CoreDeps, tx: Tx, paymentId: string, steps: TransitionStep[], next: CheckoutNext, challengePending: boolean, card: CardSummary | null,
): Promise<CheckoutNext> {
  return atomically(tx, async (inner) => {
    const changes = await transitionPayment(deps, inner, paymentId, steps);
    await db(inner)
      .updateTable("payments")
      .set({ attempt_expires_at: null, challenge_pending: challengePending, ...(card ? { card_brand: card.brand, card_last4: card.last4 } : {}) })
      .where("id", "=", paymentId)
      .execute();
    return { value: next, events: changes.events };
  });
}

async function outcome(deps: CoreDeps, tx: Tx, caller: PublicCaller, paymentId: string, next: CheckoutNext, card?: CardSummary): Promise<CheckoutOutcome> {
  return { payment: await getHostedPayment(deps, tx, caller, paymentId), next, card };
}

/** The card form's submit. Declined → failed; the challenge card → processing, waiting for `completeChallenge`. */
export async function submitCard(deps: CoreDeps, tx: Tx, caller: PublicCaller, paymentId: string, input: CardInput): Promise<CheckoutOutcome> {
  requireNoTransaction(tx);
  await admitCardSubmit(deps.config, tx, paymentId, caller.clientIp, deps.now());
  const card = readCard(input, deps.now());
  const payment = await claimAttempt(deps, tx, paymentId, (p) => {
    if (p.method_type !== "card") fail("validation_error", "This payment is paid by bank transfer, not by card.");
  });
  const processor = processorFor(deps, payment.mode);
  const result = await callProcessor(deps, tx, paymentId, () =>
    processor.chargeCard({ attemptId: `${paymentId}:${deps.now().getTime()}`, paymentId, amount: BigInt(payment.amount), currency: payment.currency as Currency, card }));
  const summary = { brand: card.brand, last4: card.last4 };
  const next = await recordOutcome(deps, tx, paymentId, result, summary);
  return outcome(deps, tx, caller, paymentId, next, summary);
}

/** The challenge step's answer: passed → captured, failed → failed. */
export async function completeChallenge(deps: CoreDeps, tx: Tx, caller: PublicCaller, paymentId: string, passed: boolean): Promise<CheckoutOutcome> {
  requireNoTransaction(tx);
  const payment = await claimAttempt(deps, tx, paymentId, (p) => {
    if (!p.challenge_pending) fail("validation_error", "This payment has no challenge step pending.");
  });
  const processor = processorFor(deps, payment.mode);
  const result = await callProcessor(deps, tx, paymentId, () => processor.completeChallenge(paymentId, passed));
  const next = await recordOutcome(deps, tx, paymentId, result, null);
  const card = payment.card_brand && payment.card_last4 ? { brand: payment.card_brand as CardSummary["brand"], last4: payment.card_last4 } : undefined;
  return outcome(deps, tx, caller, paymentId, next, card);
}

// Crockford's base32 without I, L, O, U: read aloud and typed into a banking app without confusion.
const REFERENCE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

function newBankReference(): string {
  const bytes = randomBytes(10);
  return `PT-${Array.from(bytes, (b) => REFERENCE_ALPHABET[b & 31]).join("")}`;
}

export interface BankTransferStarted {
  payment: HostedPayment;
  bankTransfer: BeneficiaryAccount & { reference: string };
}

/** The customer chose to pay by bank transfer: processing, with the account and a unique reference. Again: the same answer. */
export async function startBankTransfer(deps: CoreDeps, tx: Tx, caller: PublicCaller, paymentId: string): Promise<BankTransferStarted> {
  requireNoTransaction(tx);
  const view = await getHostedPayment(deps, tx, caller, paymentId);
  if (view.method_type !== "bank_transfer") fail("validation_error", "This payment is paid by card, not by bank transfer.");
  if (view.bank_transfer) return { payment: view, bankTransfer: view.bank_transfer };
  if (!view.payable) notPayable(view.status);
  await atomically(tx, async (inner) => {
    const locked = await lockPayable(deps, inner, paymentId);
    // Started by a concurrent call meanwhile: keep its reference.
    if (!locked.value.payable || locked.value.payment.bank_reference !== null) return { value: undefined, events: locked.events };
    const changes = await transitionPayment(deps, inner, paymentId, [startProcessing]);
    await db(inner).updateTable("payments").set({ bank_reference: newBankReference() }).where("id", "=", paymentId).execute();
    return { value: undefined, events: changes.events };
  });
  const after = await getHostedPayment(deps, tx, caller, paymentId);
  if (!after.bank_transfer) return notPayable(after.status);
  return { payment: after, bankTransfer: after.bank_transfer };
}

/** The cancel action on the page: a payable payment is canceled and the customer goes back to cancel_url. */
export async function cancelCheckout(deps: CoreDeps, tx: Tx, caller: PublicCaller, paymentId: string): Promise<CheckoutOutcome> {
  const canceled = await atomically(tx, async (inner) => {
    const locked = await lockPayable(deps, inner, paymentId);
    if (!locked.value.payable) return locked;
    const changes = await transitionPayment(deps, inner, paymentId, [cancel]);
    return { value: locked.value, events: changes.events };
  });
  if (!canceled.payable) notPayable(canceled.status);
  return outcome(deps, tx, caller, paymentId, "redirect_cancel");
}
