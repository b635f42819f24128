import { describe, expect, test } from "vitest";
import { PaymentStatus } from "../../proto/gen/paytami/v1/enums.ts";
import { PublicError } from "./public-error.ts";
import { createPaymentRequest, listPaymentsRequest } from "./request-shapes.ts";

const unreadable = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PublicError);
    return (error as PublicError).message;
  }
  throw new Error("expected the input to be unreadable");
};

describe("POST /v1/payments body → CreatePaymentRequest", () => {
  test("the public body is the proto request, field for field; values are left to the core", () => {
    const body = {
      amount: "abc",
      currency: "eur",
      method_type: "cash",
      success_url: "nope",
      cancel_url: "",
      description: "x",
      customer: { email: "not an email", name: "Ana" },
    };
    expect(createPaymentRequest(body, "idem-1")).toEqual({ idempotency_key: "idem-1", ...body });
  });

  test("absent fields stay unset", () => {
    expect(createPaymentRequest({}, "")).toEqual({ idempotency_key: "" });
  });

  test.each([
    [{ amount: 100 }, "amount must be a string."],
    [{ customer: "Ana" }, "customer must be an object with optional string fields email and name."],
    [{ customer: { phone: "1" } }, "customer must be an object with optional string fields email and name."],
    [{ colour: "blue" }, "Unknown field colour."],
    [[], "The body must be a JSON object."],
  ])("unreadable JSON types and unknown fields: %j", (body, message) => {
    expect(unreadable(() => createPaymentRequest(body, "k"))).toBe(message);
  });
});

describe("GET /v1/payments query → ListPaymentsRequest", () => {
  test("text becomes an integer and an enum; the range is the core's to check", () => {
    expect(listPaymentsRequest({ limit: "0", status: "pending_settlement", starting_after: "pay_x" })).toEqual({
      limit: 0,
      status: PaymentStatus.PAYMENT_STATUS_PENDING_SETTLEMENT,
      starting_after: "pay_x",
    });
    expect(listPaymentsRequest({ limit: "-1" })).toEqual({ limit: -1 });
    expect(listPaymentsRequest({ limit: "2147483647" })).toEqual({ limit: 2147483647 });
    expect(listPaymentsRequest({})).toEqual({});
  });

  test.each(["paid", "CREATED", "", "0"])("an unknown status (%j) is UNRECOGNIZED, for the core to reject in order", (status) => {
    expect(listPaymentsRequest({ status })).toEqual({ status: PaymentStatus.UNRECOGNIZED });
  });

  test.each(["abc", "1.5", "1e2", "0x10", "", "01", "2147483648", "9999999999999999999999", " 5"])("limit=%j is unreadable", (limit) => {
    expect(unreadable(() => listPaymentsRequest({ limit }))).toBe("limit must be an integer.");
  });

  test.each([{ limit: ["1", "2"] }, { status: ["created", "failed"] }, { colour: "blue" }])("%j is unreadable", (query) => {
    unreadable(() => listPaymentsRequest(query));
  });
});
