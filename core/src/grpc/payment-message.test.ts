import { describe, expect, test } from "vitest";
import { Payment } from "../../../proto/gen/paytami/v1/payment.ts";
import { paymentJson } from "../../../proto/payment-json.ts";
import { PAYMENT_STATUSES } from "../domain/payment-states.ts";
import { toPaymentMessage } from "./payment-service.ts";
import { paymentJsonBytes, type PaymentView } from "../domain/payment-view.ts";

// Idempotent replays are compared byte for byte: the domain view, through the gRPC message and the
// wire, must come out of paymentJson as the very same JSON text.
const view = (overrides: Partial<PaymentView> = {}): PaymentView => ({
  id: "pay_0123456789abcdef01234567",
  status: "created",
  currency: "GTQ",
  amount: "10000",
  service_fee: "550",
  net_amount: "9450",
  description: "Pedido #1 — café ☕",
  checkout_url: "https://pay.example/v1/checkout/pay_0123456789abcdef01234567",
  created_at: "2026-01-02T03:04:05.678Z",
  ...overrides,
});

function throughTheWire(v: PaymentView): string {
  const decoded = Payment.decode(Payment.encode(toPaymentMessage(v)).finish());
  return JSON.stringify(paymentJson(decoded));
}

describe("Payment: domain view → gRPC message → public JSON", () => {
  test.each(PAYMENT_STATUSES)("is byte-identical for status %s", (status) => {
    const v = view({ status });
    expect(throughTheWire(v)).toBe(JSON.stringify(v));
  });

  test("without a description, in USD, with the largest amounts", () => {
    const { description: _omit, ...rest } = view({ currency: "USD", amount: "9999999999999999", service_fee: "0", net_amount: "9999999999999999" });
    expect(throughTheWire(rest)).toBe(JSON.stringify(rest));
    expect(Object.keys(JSON.parse(throughTheWire(rest)))).toEqual([
      "id",
      "status",
      "currency",
      "amount",
      "service_fee",
      "net_amount",
      "checkout_url",
      "created_at",
    ]);
  });

  test("an empty description is kept (it is not the same as none)", () => {
    const v = view({ description: "" });
    expect(throughTheWire(v)).toBe(JSON.stringify(v));
  });
});

// The facade writes CreatePayment's and GetPayment's `json` bytes through as the response body: they
// must be the very bytes the facade would have rendered from the message, whatever order the view's keys are in.
describe("Payment: the core-rendered JSON bytes", () => {
  test.each(PAYMENT_STATUSES)("equal the message's public JSON for status %s", (status) => {
    expect(paymentJsonBytes(view({ status })).toString("utf8")).toBe(throughTheWire(view({ status })));
  });

  test("keys in contract order even when the view was built in another order; no description stays absent", () => {
    const { description: _omit, ...rest } = view();
    const shuffled = Object.fromEntries(Object.entries(rest).reverse()) as unknown as PaymentView;
    expect(paymentJsonBytes(shuffled).toString("utf8")).toBe(throughTheWire(rest));
    expect(paymentJsonBytes(view({ description: "" })).toString("utf8")).toBe(throughTheWire(view({ description: "" })));
  });
});
