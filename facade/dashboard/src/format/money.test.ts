import { describe, expect, it } from "vitest";
import { formatDecimal, formatMinor } from "./money.ts";
import { formatDate, formatDateTime } from "./time.ts";

describe("dashboard amounts", () => {
  it("formats minor units per currency without floats", () => {
    expect(formatMinor("150000", "GTQ")).toBe("Q 1,500.00");
    expect(formatMinor(2500, "USD")).toBe("US$ 25.00");
    expect(formatMinor(7n, "GTQ")).toBe("Q 0.07");
    expect(formatMinor("-500", "GTQ")).toBe("-Q 5.00");
    expect(formatMinor("0", "USD")).toBe("US$ 0.00");
    expect(formatMinor("123456789012345678901234", "GTQ")).toBe("Q 1,234,567,890,123,456,789,012.34");
  });

  it("formats decimal strings in major units exactly", () => {
    expect(formatDecimal("1500", "GTQ")).toBe("Q 1,500.00");
    expect(formatDecimal("25.5", "USD")).toBe("US$ 25.50");
    expect(formatDecimal("0.10", "GTQ")).toBe("Q 0.10");
  });

  it("refuses what is not an amount", () => {
    expect(() => formatMinor("1.5", "GTQ")).toThrow(RangeError);
    expect(() => formatMinor(1.5, "GTQ")).toThrow(RangeError);
    expect(() => formatDecimal("1.234", "GTQ")).toThrow(RangeError);
    expect(() => formatDecimal("abc", "GTQ")).toThrow(RangeError);
  });
});

describe("dashboard times", () => {
  it("shows an instant in the merchant's time zone (Guatemala, UTC-6, by default)", () => {
    expect(formatDateTime("2026-11-25T05:30:00Z", "en")).toBe("Nov 24, 2026, 11:30 PM");
    expect(formatDate("2026-11-25T05:30:00Z", "en")).toBe("Nov 24, 2026");
    expect(formatDate("2026-11-25T05:30:00Z", "en", "UTC")).toBe("Nov 25, 2026");
    expect(formatDateTime("not a date", "es")).toBe("not a date");
  });
});
