import { randomUUID } from "node:crypto";
import type { EventType } from "../../../proto/event-catalog.ts";
import { requireEventType } from "./events.ts";
import type { Currency, MethodType } from "../config.ts";
import { Merchant } from "../db/entities/index.ts";
import { OPERATOR, type MerchantCaller } from "./caller.ts";
import { createPayment } from "./create-payment.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { addBankAccount } from "./bank-accounts.ts";
import { openChargeback, winChargeback } from "./chargebacks.ts";
import { newId } from "./ids.ts";
import { merchantBalances } from "./ledger.ts";
import { transitionPayment } from "./payment-transitions.ts";
import type { PaymentView } from "./payment-view.ts";
import { advancePayout, requestPayout } from "./payouts.ts";
import { refundPayment } from "./refunds.ts";
import { settleNow } from "./settlement.ts";
import { SIMULATION_STEPS } from "./simulate-payment.ts";
import { atomically, type Changes, type Tx } from "./unit-of-work.ts";

export interface TriggeredEvent {
  eventId: string;
  type: EventType;
  objectId: string;
}

/** What a fixture did inside its transaction: the events it raised, the object the wanted one is about, and any payout to take through the bank afterwards. */
interface Fixture extends Changes<string> {
  payoutId?: string;
}

/** A card payment (bank transfer when that is all the merchant takes), in GTQ unless the merchant takes only USD. */
async function fixturePayment(
  deps: CoreDeps,
  tx: Tx,
  owner: MerchantCaller,
  type: EventType,
  amountIn?: (currency: Currency) => Promise<bigint>,
): Promise<PaymentView> {
  const merchant = await tx.findOne(Merchant, owner.merchantId);
  if (!merchant) return fail("validation_error", `Unknown merchant ${owner.merchantId}.`);
  const currency = (merchant.currencies.includes("GTQ") ? "GTQ" : merchant.currencies[0]) as Currency;
  const method = (merchant.methods.includes("card") ? "card" : merchant.methods[0]) as MethodType;
  const { min, max } = deps.config.currencies[currency].limits;
  const wanted = amountIn ? await amountIn(currency) : 10_000n;
  const amount = wanted < min ? min : wanted > max ? max : wanted;
  const result = await createPayment(deps, tx, owner, {
    idempotencyKey: `trigger-${randomUUID()}`,
    input: {
      amount: amount.toString(),
      currency,
      method_type: method,
      success_url: `${deps.config.publicBaseUrl}/trigger/success`,
      cancel_url: `${deps.config.publicBaseUrl}/trigger/cancel`,
      description: `Fixture for paytami trigger ${type}`,
    },
  });
  return result.value;
}

/** A new fixture payment of the merchant, captured (authorize + capture, as a paid card payment). */
async function capturedPayment(
  deps: CoreDeps,
  tx: Tx,
  owner: MerchantCaller,
  type: EventType,
  amountIn?: (currency: Currency) => Promise<bigint>,
): Promise<Changes<PaymentView>> {
  const payment = await fixturePayment(deps, tx, owner, type, amountIn);
  return transitionPayment(deps, tx, payment.id, SIMULATION_STEPS.succeed);
}

/**
 * How each event type is made from scratch, through the same operations real money takes: payment
 * events from a fixture payment's transitions; a refund of the whole of a captured fixture; a
 * chargeback opened (and won) on one; a payout of the merchant's available balance after a fixture
 * is captured and settled, to a fixture bank account (not the merchant's own, which stays as it is)
 * whose number ends in 0002 for payout.failed, as the sandbox bank's closed account.
 */
const FIXTURES = {
  "payment.succeeded": async (deps, tx, owner) =>
    fromPayment(await transitionPayment(deps, tx, (await fixturePayment(deps, tx, owner, "payment.succeeded")).id, SIMULATION_STEPS.succeed)),
  "payment.failed": async (deps, tx, owner) =>
    fromPayment(await transitionPayment(deps, tx, (await fixturePayment(deps, tx, owner, "payment.failed")).id, SIMULATION_STEPS.fail)),
  "payment.canceled": async (deps, tx, owner) =>
    fromPayment(await transitionPayment(deps, tx, (await fixturePayment(deps, tx, owner, "payment.canceled")).id, SIMULATION_STEPS.cancel)),
  "refund.succeeded": async (deps, tx, owner) => {
    const captured = await capturedPayment(deps, tx, owner, "refund.succeeded");
    const refund = await refundPayment(deps, tx, captured.value.id, undefined, "requested_by_customer");
    return { value: refund.value.id, events: [...captured.events, ...refund.events] };
  },
  "chargeback.opened": async (deps, tx, owner) => {
    const captured = await capturedPayment(deps, tx, owner, "chargeback.opened");
    const opened = await openChargeback(deps, tx, OPERATOR, { paymentId: captured.value.id, reason: "fixture" });
    return { value: opened.value.id, events: [...captured.events, ...opened.events] };
  },
  "chargeback.won": async (deps, tx, owner) => {
    const captured = await capturedPayment(deps, tx, owner, "chargeback.won");
    const opened = await openChargeback(deps, tx, OPERATOR, { paymentId: captured.value.id, reason: "fixture" });
    const won = await winChargeback(deps, tx, OPERATOR, { paymentId: captured.value.id });
    return { value: won.value.id, events: [...captured.events, ...opened.events, ...won.events] };
  },
  "payout.completed": (deps, tx, owner) => payoutFixture(deps, tx, owner, "payout.completed", "000000000001"),
  "payout.failed": (deps, tx, owner) => payoutFixture(deps, tx, owner, "payout.failed", "000000000002"),
} as const satisfies Record<EventType, (deps: CoreDeps, tx: Tx, owner: MerchantCaller) => Promise<Fixture>>;

const fromPayment = (changes: Changes<PaymentView>): Fixture => ({ value: changes.value.id, events: changes.events });

async function payoutFixture(deps: CoreDeps, tx: Tx, owner: MerchantCaller, type: EventType, accountNumber: string): Promise<Fixture> {
  // The payout sweeps the merchant's whole available balance less what it owes (an open chargeback
  // fixture leaves available negative): the fixture payment brings at least that much more.
  const captured = await capturedPayment(deps, tx, owner, type, async (currency) => {
    const [before] = await merchantBalances(tx, owner.merchantId, owner.mode, currency);
    const owed = before ? -(before.available + (before.pending < 0n ? before.pending : 0n)) : 0n;
    // Twice what is owed more than the usual 10 000 covers the fee on top of it.
    return owed > 0n ? 10_000n + 2n * owed : 10_000n;
  });
  await settleNow(deps, tx, captured.value.id);
  const account = await addBankAccount(deps, tx, OPERATOR, {
    merchantId: owner.merchantId,
    mode: owner.mode,
    currency: captured.value.currency,
    accountNumber,
    holderName: "Fixture for paytami trigger",
    active: false,
  });
  const payout = await requestPayout(deps, tx, owner, { currency: captured.value.currency, bankAccountId: account.value.id });
  if (!payout.value)
    return fail("validation_error", `Nothing is available to pay out in ${captured.value.currency}: the merchant owes more than the fixture payment brought.`);
  return { value: payout.value.id, events: [...captured.events, ...payout.events], payoutId: payout.value.id };
}

/**
 * `paytami trigger TYPE`: fires a real event for a test-mode merchant, made by the fixture of its
 * type (FIXTURES) in one transaction, so the event is a real outbox row relayed and delivered like
 * any other. A payout fixture is then taken through the sandbox bank's steps, each its own
 * transaction like every payout, and the event is the one its last step raised.
 */
export async function triggerEvent(deps: CoreDeps, tx: Tx, owner: MerchantCaller, { type }: { type: string }): Promise<TriggeredEvent> {
  const eventType = requireEventType(type, "the event type");
  if (owner.mode !== "test") return fail("validation_error", "trigger makes fixtures in test mode only.");
  const eventId = newId("evt");
  const fixture = await atomically(tx, async (inner): Promise<Changes<Fixture>> => {
    const made: Fixture = await FIXTURES[eventType](deps, inner, owner);
    if (made.payoutId) return { value: made, events: made.events };
    const fired = made.events.findLast((event) => event.type === eventType);
    if (!fired) return fail("internal_error", `The fixture raised no ${type}.`);
    return { value: made, events: made.events.map((event) => (event === fired ? { ...event, id: eventId } : event)) };
  });
  if (!fixture.payoutId) return { eventId, type: eventType, objectId: fixture.value };
  const payout = await advancePayout(deps, tx, fixture.payoutId, { eventId });
  if (payout.status !== type.slice("payout.".length)) return fail("internal_error", `The fixture payout ended ${payout.status}, not as ${type} needs.`);
  return { eventId, type: eventType, objectId: payout.id };
}
