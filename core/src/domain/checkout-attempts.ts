import { randomBytes } from "node:crypto";
import { db } from "../db/orm.ts";
import type { Currency } from "../config.ts";
import { readCard, type CardSummary } from "../processor/card.ts";
import { processorCall, type CallLabel, type DeadlineOutcome } from "../processor/deadline.ts";
import type { BeneficiaryAccount, CardOutcome } from "../processor/processor.ts";
import { processorFor } from "../processor/processor-for.ts";
import type { PublicCaller } from "./caller.ts";
import { admitCardSubmit } from "./card-submit-limit.ts";
import { getHostedPayment, type HostedPayment } from "./checkout.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { requireLinkRoom } from "./link-capacity.ts";
import { lockPayable, notPayable, type LockedPayment } from "./payment-lock.ts";
import { authorize, cancel, capture, failPayment, startProcessing } from "./payment-states.ts";
import { transitionPayment, type TransitionStep } from "./payment-transitions.ts";
import { atomically, withoutTransaction, type Tx } from "./unit-of-work.ts";

// The customer's actions on the hosted page. Each one that calls the processor does it in three
// steps, so no row lock is held while the processor answers: claim the attempt in one short
// transaction (the payment is locked, checked payable, and leased with `attempt_expires_at`, which keeps
// every other attempt, cancel and expiry off it), call the processor with no transaction open,
// record the outcome and free the lease in another short transaction.
//
// The call has PROCESSOR_CALL_TIMEOUT, well inside the lease. Past it the customer is answered
// processor_unavailable at once, and the payment is freed only if the processor withdrew the call
// (nothing charged). Otherwise the outcome is unknown: the call may still charge, so the payment
// moves to processing and stays leased until its own expiry, the call's late answer is recorded
// when it comes, and no second attempt can charge it meanwhile.

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
    // A link's payment is authorized only while the link can still capture it: a refused capture would leave money held.
    await requireLinkRoom(deps, inner, locked.value.payment);
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

/**
 * Calls the processor under its deadline. An error before it (anything but a catalog error is the
 * processor being unavailable) or a withdrawn call frees the payment; an unknown outcome holds it
 * for the late answer. The customer is answered processor_unavailable in every one of these cases.
 */
async function callProcessor<T extends CardOutcome>(
  deps: CoreDeps,
  tx: Tx,
  payment: LockedPayment,
  call: CallLabel["call"],
  request: (signal: AbortSignal) => Promise<T>,
  card: CardSummary | null,
): Promise<T> {
  let ended: DeadlineOutcome<T>;
  try {
    ended = await processorCall(deps.config, { mode: payment.mode, call }, request, (answer) => answer.outcome);
  } catch (error) {
    await releaseAttempt(tx, payment.id);
    if (error instanceof DomainError) throw error;
    deps.log.error({ err: error, payment_id: payment.id }, "processor call failed");
    throw new DomainError("processor_unavailable", "The payment processor is unavailable; try again.");
  }
  if (ended.ended === "answered") return ended.value;
  if (ended.ended === "withdrawn") {
    await releaseAttempt(tx, payment.id);
    throw new DomainError("processor_unavailable", "The payment processor did not answer in time; nothing was charged. Try again.");
  }
  await holdForLateAnswer(deps, tx, payment.id);
  recordLateAnswer(deps, payment.id, ended.late, card);
  throw new DomainError("processor_unavailable", "The payment processor did not answer in time. This payment waits for its answer; do not pay it again.");
}

/**
 * An unknown outcome: the payment moves to processing (the page waits instead of offering the form
 * again) and its lease runs to the payment's own expiry, so no attempt, cancel or expiry starts while
 * the first call may still charge.
 */
async function holdForLateAnswer(deps: CoreDeps, tx: Tx, paymentId: string): Promise<void> {
  await atomically(tx, async (inner) => {
    const changes = await transitionPayment(deps, inner, paymentId, [(p, at) => (p.status === "created" ? startProcessing(p, at) : null)]);
    await db(inner)
      .updateTable("payments")
      .set((eb) => ({
        attempt_expires_at: eb.fn("greatest", [eb.ref("expires_at"), eb.ref("attempt_expires_at")]),
        challenge_pending: false,
        challenge_reference: null,
      }))
      .where("id", "=", paymentId)
      .execute();
    return { value: undefined, events: changes.events };
  });
  deps.log.error({ payment_id: paymentId }, "processor call passed its deadline with an unknown outcome; the payment is held for its answer");
}

/** The late answer of a held call, recorded like a timely one (which frees the payment); a call that never answers leaves it held until it expires. */
function recordLateAnswer(deps: CoreDeps, paymentId: string, late: Promise<CardOutcome>, card: CardSummary | null): void {
  late.then(
    (answer) =>
      withoutTransaction(deps, (tx) => recordOutcome(deps, tx, paymentId, answer, card)).then(
        () => deps.log.warn({ payment_id: paymentId, outcome: answer.outcome }, "processor answered after its deadline; the answer is recorded"),
        (err: unknown) =>
          deps.log.error(
            { err, payment_id: paymentId, outcome: answer.outcome },
            "processor answered after its deadline and the answer could not be recorded; reconcile with the processor",
          ),
      ),
    (err: unknown) =>
      deps.log.error(
        { err, payment_id: paymentId },
        "processor call failed after its deadline; the payment stays held until it expires; reconcile with the processor",
      ),
  );
}

/** The steps of the state table an outcome takes, and where the page goes next. */
function afterOutcome(outcome: CardOutcome): { steps: TransitionStep[]; next: CheckoutNext; challenge: string | null } {
  switch (outcome.outcome) {
    case "authorized":
      return { steps: [authorize, capture], next: "redirect_success", challenge: null };
    case "declined":
      return { steps: [failPayment], next: "redirect_cancel", challenge: null };
    case "challenge":
      // A challenge after an earlier one was abandoned: the payment is processing already.
      return { steps: [(p, at) => (p.status === "processing" ? null : startProcessing(p, at))], next: "challenge", challenge: outcome.reference };
  }
}

async function recordOutcome(deps: CoreDeps, tx: Tx, paymentId: string, outcome: CardOutcome, card: CardSummary | null): Promise<CheckoutNext> {
  const { steps, next, challenge } = afterOutcome(outcome);
  try {
    return await recordTransition(deps, tx, paymentId, steps, next, challenge, card);
  } catch (error) {
    // Refused by a rule the table does not hold (a link at its max_payments): the payment stays as it was, free for another attempt or its expiry.
    await releaseAttempt(tx, paymentId);
    throw error;
  }
}

async function recordTransition(
  deps: CoreDeps,
  tx: Tx,
  paymentId: string,
  steps: TransitionStep[],
  next: CheckoutNext,
  challenge: string | null,
  card: CardSummary | null,
): Promise<CheckoutNext> {
  return atomically(tx, async (inner) => {
    const changes = await transitionPayment(deps, inner, paymentId, steps);
    await db(inner)
      .updateTable("payments")
      .set({
        attempt_expires_at: null,
        challenge_pending: challenge !== null,
        challenge_reference: challenge,
        ...(card ? { card_brand: card.brand, card_last4: card.last4 } : {}),
      })
      .where("id", "=", paymentId)
      .execute();
    return { value: next, events: changes.events };
  });
}

async function outcome(deps: CoreDeps, tx: Tx, caller: PublicCaller, paymentId: string, next: CheckoutNext, card?: CardSummary): Promise<CheckoutOutcome> {
  return { payment: await getHostedPayment(deps, tx, caller, paymentId), next, card };
}

/** The card form's submit. Declined → failed; the challenge card → processing, waiting for `completeChallenge`. */
export async function submitCard(
  deps: CoreDeps,
  tx: Tx,
  caller: PublicCaller,
  { paymentId, card: input }: { paymentId: string; card: CardInput },
): Promise<CheckoutOutcome> {
  requireNoTransaction(tx);
  await admitCardSubmit(deps.config, tx, paymentId, caller.clientIp, deps.now());
  const card = readCard(input, deps.now());
  const payment = await claimAttempt(deps, tx, paymentId, (p) => {
    if (p.method_type !== "card") fail("validation_error", "This payment is paid by bank transfer, not by card.");
  });
  const processor = processorFor(deps, payment.mode);
  const summary = { brand: card.brand, last4: card.last4 };
  const charge = { attemptId: `${paymentId}:${deps.now().getTime()}`, paymentId, amount: BigInt(payment.amount), currency: payment.currency as Currency, card };
  const result = await callProcessor(deps, tx, payment, "charge_card", (signal) => processor.chargeCard(charge, signal), summary);
  const next = await recordOutcome(deps, tx, paymentId, result, summary);
  return outcome(deps, tx, caller, paymentId, next, summary);
}

/**
 * The end of the challenge step: the processor completes the challenge it opened and its answer
 * decides (authorized → captured, declined → failed). `cardholderConfirmed` is only the cardholder's
 * answer in the issuer's step, which the processor weighs; it cannot make a refused challenge pass.
 */
export async function completeChallenge(
  deps: CoreDeps,
  tx: Tx,
  caller: PublicCaller,
  { paymentId, confirmed: cardholderConfirmed }: { paymentId: string; confirmed: boolean },
): Promise<CheckoutOutcome> {
  requireNoTransaction(tx);
  const payment = await claimAttempt(deps, tx, paymentId, (p) => {
    if (!p.challenge_pending) fail("validation_error", "This payment has no challenge step pending.");
  });
  const processor = processorFor(deps, payment.mode);
  // A challenge left pending before its reference was stored is one the processor cannot name: it refuses it.
  const reference = payment.challenge_reference ?? "";
  const result = await callProcessor(
    deps,
    tx,
    payment,
    "complete_challenge",
    (signal) => processor.completeChallenge(reference, cardholderConfirmed, signal),
    null,
  );
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
