import { describe, expect, it } from "vitest";
import { DomainError } from "./errors.ts";
import {
  PAYMENT_STATUSES,
  TRANSITIONS,
  authorize,
  canApply,
  capture,
  notPayableReason,
  openChargeback,
  winChargeback,
  type PaymentOperation,
  type PaymentStatus,
} from "./payment-states.ts";
import * as states from "./payment-states.ts";

// The expected table, written out independently of TRANSITIONS so a change to
// one without the other fails here.
const LEGAL: Record<PaymentOperation, PaymentStatus[]> = {
  startProcessing: ["created"],
  authorize: ["created", "processing"],
  capture: ["authorized", "processing"],
  fail: ["created", "processing", "authorized"],
  cancel: ["created", "processing", "authorized"],
  expire: ["created", "processing", "authorized"],
  batchForSettlement: ["captured"],
  receiveFunds: ["pending_settlement"],
  releaseFunds: ["settled_to_paytami"],
  refundPart: ["captured", "pending_settlement", "settled_to_paytami", "available_to_merchant", "partially_refunded"],
  refundRest: ["captured", "pending_settlement", "settled_to_paytami", "available_to_merchant", "partially_refunded"],
  openChargeback: ["captured", "pending_settlement", "settled_to_paytami", "available_to_merchant", "partially_refunded"],
  winChargeback: ["chargeback"],
};

const FUNCTIONS: Record<PaymentOperation, (p: states.PaymentStateFields, at: Date) => states.TransitionResult> = {
  startProcessing: states.startProcessing,
  authorize: states.authorize,
  capture: states.capture,
  fail: states.failPayment,
  cancel: states.cancel,
  expire: states.expire,
  batchForSettlement: states.batchForSettlement,
  receiveFunds: states.receiveFunds,
  releaseFunds: states.releaseFunds,
  refundPart: states.refundPart,
  refundRest: states.refundRest,
  openChargeback: states.openChargeback,
  winChargeback: states.winChargeback,
};

describe("payment transition table", () => {
  const operations = Object.keys(TRANSITIONS) as PaymentOperation[];
  const pairs = operations.flatMap((op) => PAYMENT_STATUSES.map((status) => [op, status] as const));

  it("covers every operation", () => {
    expect(operations.sort()).toEqual((Object.keys(LEGAL) as PaymentOperation[]).sort());
  });

  it.each(pairs)("%s from %s is allowed exactly when the design says so", (op, status) => {
    const at = new Date("2026-11-21T10:00:00.123Z");
    const legal = LEGAL[op].includes(status);
    expect(canApply(op, status)).toBe(legal);
    const run = () => FUNCTIONS[op]({ status, status_before_chargeback: null }, at);
    if (legal) {
      const result = run();
      expect(result.at).toBe(at);
      expect(result.stamp).toBe(TRANSITIONS[op].stamp);
    } else {
      expect(run).toThrow(DomainError);
      try {
        run();
      } catch (error) {
        expect((error as DomainError).code).toBe(TRANSITIONS[op].rejectWith);
        // The current state and every state the operation accepts.
        expect((error as DomainError).message).toContain(`in status ${status}`);
        expect((error as DomainError).message).toContain(`must be ${LEGAL[op].join(" or ")}`);
      }
    }
  });

  it("captures after authorization and restores the pre-chargeback state when a chargeback is won", () => {
    const at = new Date("2026-11-21T10:00:00.123Z");
    const authorized = authorize({ status: "created", status_before_chargeback: null }, at);
    expect(authorized.status).toBe("authorized");
    const captured = capture(authorized, at);
    expect(captured).toMatchObject({ status: "captured", event: "payment.succeeded", stamp: "captured_at" });
    const disputed = openChargeback({ status: "available_to_merchant", status_before_chargeback: null }, at);
    expect(disputed).toMatchObject({ status: "chargeback", status_before_chargeback: "available_to_merchant" });
    expect(winChargeback(disputed, at).status).toBe("available_to_merchant");
  });

  it.each(PAYMENT_STATUSES)("names the checkout-session reason for %s", (status) => {
    const expected = ["created", "processing", "authorized"].includes(status)
      ? null
      : ["failed", "canceled", "expired"].includes(status)
        ? status
        : "already_paid";
    expect(notPayableReason(status)).toBe(expected);
  });
});
