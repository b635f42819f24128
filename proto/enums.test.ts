import { describe, expect, test } from "vitest";
import { CURRENCIES, METHOD_TYPES } from "../core/src/config.ts";
import { PAYMENT_STATUSES } from "../core/src/domain/payment-states.ts";
import { currencyCodec, methodTypeCodec, modeCodec, paymentStatusCodec } from "./enums.ts";
import { Currency, MethodType, Mode, PaymentStatus } from "./gen/paytami/v1/enums.ts";

describe("enum codecs", () => {
  test("the proto enums name exactly the sets the core knows, in the same order", () => {
    expect(paymentStatusCodec.wireNames).toEqual(PAYMENT_STATUSES);
    expect(currencyCodec.wireNames).toEqual(CURRENCIES);
    expect(methodTypeCodec.wireNames).toEqual(METHOD_TYPES);
    expect(modeCodec.wireNames).toEqual(["test", "live"]);
  });

  test("wire strings: lowercase names without the prefix, currency codes as they are", () => {
    expect(paymentStatusCodec.toWire(PaymentStatus.PAYMENT_STATUS_PENDING_SETTLEMENT)).toBe("pending_settlement");
    expect(currencyCodec.toWire(Currency.CURRENCY_GTQ)).toBe("GTQ");
    expect(methodTypeCodec.toWire(MethodType.METHOD_TYPE_BANK_TRANSFER)).toBe("bank_transfer");
    expect(modeCodec.toWire(Mode.MODE_TEST)).toBe("test");
  });

  test.each([paymentStatusCodec, currencyCodec, methodTypeCodec, modeCodec])("every wire string round-trips (%#)", (codec) => {
    for (const wire of codec.wireNames) {
      const value = codec.fromWire(wire);
      expect(codec.isKnown(value)).toBe(true);
      expect(codec.toWire(value)).toBe(wire);
      expect(codec.requestText(value)).toBe(wire);
    }
  });

  test("unknown text is UNRECOGNIZED; unknown values are not known and keep their number as request text", () => {
    for (const text of ["", "CREATED", "Created", "paid", "PAYMENT_STATUS_CREATED", "unspecified", "0", "constructor", "__proto__"]) {
      expect(paymentStatusCodec.fromWire(text)).toBe(PaymentStatus.UNRECOGNIZED);
    }
    expect(currencyCodec.fromWire("gtq")).toBe(Currency.UNRECOGNIZED);
    for (const value of [-1, 0, 14, 99]) {
      expect(paymentStatusCodec.isKnown(value)).toBe(false);
      expect(paymentStatusCodec.requestText(value)).toBe(String(value));
      expect(() => paymentStatusCodec.toWire(value)).toThrow();
    }
  });
});
