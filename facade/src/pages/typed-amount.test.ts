import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatMoney } from "../../../proto/format-money.ts";
import { parseTypedAmount } from "./typed-amount.ts";

describe("parseTypedAmount", () => {
  it.each([
    ["150", "GTQ", "15000"],
    ["150.50", "GTQ", "15050"],
    ["150.5", "GTQ", "15050"],
    ["Q150", "GTQ", "15000"],
    ["Q 150", "GTQ", "15000"],
    ["q150.05", "GTQ", "15005"],
    ["Q. 25", "GTQ", "2500"],
    ["GTQ 10", "GTQ", "1000"],
    ["Q 1,500.00", "GTQ", "150000"],
    ["1,234,567.89", "GTQ", "123456789"],
    ["  75 ", "GTQ", "7500"],
    ["0.29", "GTQ", "29"],
    [".5", "GTQ", "50"],
    ["007", "GTQ", "700"],
    ["0", "GTQ", "0"],
    ["US$ 12.00", "USD", "1200"],
    ["$12", "USD", "1200"],
    ["USD 3.5", "USD", "350"],
    ["１５０", "GTQ", "15000"],
  ])("%j in %s is %s minor units", (typed, currency, minor) => {
    expect(parseTypedAmount(typed, currency)).toBe(minor);
  });

  it.each([
    ["", "GTQ"],
    ["Q", "GTQ"],
    ["abc", "GTQ"],
    ["150.505", "GTQ"],
    ["1,50", "GTQ"],
    ["1,5000", "GTQ"],
    ["15,00.00", "GTQ"],
    ["-150", "GTQ"],
    ["+150", "GTQ"],
    ["1e3", "GTQ"],
    ["150.", "GTQ"],
    ["1 500", "GTQ"],
    ["$12", "GTQ"],
    ["Q12", "USD"],
    ["150 Q", "GTQ"],
    ["0x10", "GTQ"],
    ["Infinity", "GTQ"],
    ["12..5", "GTQ"],
  ])("%j in %s is not an amount", (typed, currency) => {
    expect(parseTypedAmount(typed, currency)).toBeUndefined();
  });

  it("reads back every amount the pages format, exactly (no float rounding)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 16n - 1n }), fc.constantFrom("GTQ", "USD"), (minor, currency) => {
        expect(parseTypedAmount(formatMoney(minor.toString(), currency), currency)).toBe(minor.toString());
        expect(parseTypedAmount(minor.toString(), currency)).toBe((minor * 100n).toString());
      }),
    );
  });
});
