import { describe, expect, test } from "vitest";
import { decimalAmount, formatMoney, moneyView } from "./format-money.ts";

describe("amounts as people read them", () => {
  test("decimal strings of major units, from minor units, signs kept", () => {
    expect(decimalAmount("123456")).toBe("1234.56");
    expect(decimalAmount("5")).toBe("0.05");
    expect(decimalAmount(0n)).toBe("0.00");
    expect(decimalAmount("-5000")).toBe("-50.00");
    expect(decimalAmount("9007199254740993123")).toBe("90071992547409931.23");
  });

  test("formatted per currency, thousands grouped", () => {
    expect(formatMoney("150000", "GTQ")).toBe("Q 1,500.00");
    expect(formatMoney("2500", "USD")).toBe("US$ 25.00");
    expect(formatMoney("-123456789", "GTQ")).toBe("-Q 1,234,567.89");
    expect(moneyView(725n, "GTQ")).toEqual({ minor: "725", decimal: "7.25", formatted: "Q 7.25" });
  });
});
