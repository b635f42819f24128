import { randomUUID } from "node:crypto";
import { EVENT_TYPES, isEventType, type EventType } from "../../../proto/event-catalog.ts";
import type { Currency, MethodType } from "../config.ts";
import { Merchant } from "../db/entities/index.ts";
import type { MerchantCaller, OperatorCaller } from "./caller.ts";
import { createPayment } from "./create-payment.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { newId } from "./ids.ts";
import type { PaymentView } from "./payment-view.ts";
import { SIMULATION_STEPS } from "./simulate-payment.ts";
import { transitionPayment } from "./payment-transitions.ts";
import type { Changes, Tx } from "./unit-of-work.ts";

export interface TriggeredEvent {
  eventId: string;
  type: EventType;
  objectId: string;
}

/** The fixture each triggerable type needs: the simulation steps that raise it from a new payment. */
const PAYMENT_TRIGGERS = {
  "payment.succeeded": SIMULATION_STEPS.succeed,
  "payment.failed": SIMULATION_STEPS.fail,
  "payment.canceled": SIMULATION_STEPS.cancel,
} as const;

const TRIGGERABLE = Object.keys(PAYMENT_TRIGGERS);

/** A card payment (bank transfer when that is all the merchant takes), in GTQ unless the merchant takes only USD. */
async function fixturePayment(deps: CoreDeps, tx: Tx, owner: MerchantCaller, type: EventType): Promise<PaymentView> {
  const merchant = await tx.findOne(Merchant, owner.merchantId);
  if (!merchant) return fail("validation_error", `Unknown merchant ${owner.merchantId}.`);
  const currency = (merchant.currencies.includes("GTQ") ? "GTQ" : merchant.currencies[0]) as Currency;
  const method = (merchant.methods.includes("card") ? "card" : merchant.methods[0]) as MethodType;
  const { min, max } = deps.config.currencies[currency].limits;
  const wanted = 10_000n;
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
  return JSON.parse(result.response) as PaymentView;
}

/**
 * `paytami trigger TYPE`: fires a real event for a test-mode merchant. Payment events come from a
 * fixture payment driven through the real transitions (so the event is the one a real payment
 * raises, data equal to GET /v1/payments/{id}); types whose objects do not exist yet (refunds,
 * chargebacks, payouts) are refused until they do.
 */
export async function triggerEvent(
  deps: CoreDeps,
  tx: Tx,
  _operator: OperatorCaller,
  owner: MerchantCaller,
  type: string,
): Promise<Changes<TriggeredEvent>> {
  if (!isEventType(type)) return fail("validation_error", `Unknown event type "${type}"; expected one of ${EVENT_TYPES.join(", ")}.`);
  if (owner.mode !== "test") return fail("validation_error", "trigger makes fixtures in test mode only.");
  if (!Object.hasOwn(PAYMENT_TRIGGERS, type)) {
    return fail("validation_error", `${type} cannot be triggered yet: Paytami does not make its objects yet. Triggerable: ${TRIGGERABLE.join(", ")}.`);
  }
  const payment = await fixturePayment(deps, tx, owner, type);
  const { events } = await transitionPayment(deps, tx, payment.id, PAYMENT_TRIGGERS[type as keyof typeof PAYMENT_TRIGGERS]);
  const fired = events.find((event) => event.type === type);
  if (!fired) return fail("internal_error", `The fixture payment raised no ${type}.`);
  const eventId = newId("evt");
  return { value: { eventId, type, objectId: payment.id }, events: events.map((event) => (event === fired ? { ...event, id: eventId } : event)) };
}
