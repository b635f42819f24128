import { describe, expect, it } from "vitest";
import { decimalFromMinor, minorFromDecimal } from "./amount-input.ts";

describe("amounts typed in a form", () => {
  it("become integer minor units exactly", () => {
    expect(minorFromDecimal("150")).toBe("15000");
    expect(minorFromDecimal("1,500.5")).toBe("150050");
    expect(minorFromDecimal(" 25.00 ")).toBe("2500");
    expect(minorFromDecimal(".5")).toBe("50");
    expect(minorFromDecimal("0")).toBe("0");
    expect(minorFromDecimal("0.07")).toBe("7");
    // Beyond a double's exact integers: still exact.
    expect(minorFromDecimal("123456789012345678.99")).toBe("12345678901234567899");
  });

  it("refuse what is not an amount of two decimals", () => {
    for (const bad of ["", "-5", "1.234", "abc", "1.2.3", "1e5", "0x10", "."]) expect(minorFromDecimal(bad)).toBeUndefined();
  });

  it("go back to a decimal for a field", () => {
    expect(decimalFromMinor("150050")).toBe("1500.50");
    expect(decimalFromMinor("7")).toBe("0.07");
    expect(decimalFromMinor("0")).toBe("0.00");
    expect(() => decimalFromMinor("1.5")).toThrow(RangeError);
  });
});
