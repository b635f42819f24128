import { describe, expect, it } from "vitest";
import { nextDay, offsetAt, zonedInstant } from "./zoned-time.ts";

describe("wall-clock times in the merchant's zone", () => {
  it("carry the zone's offset", () => {
    expect(offsetAt("America/Guatemala", new Date("2026-11-25T00:00:00Z"))).toBe("-06:00");
    expect(offsetAt("UTC", new Date("2026-11-25T00:00:00Z"))).toBe("+00:00");
    expect(zonedInstant("2026-11-25", "18:30", "America/Guatemala")).toBe("2026-11-25T18:30:00-06:00");
    expect(Date.parse(zonedInstant("2026-11-25", "00:00", "America/Guatemala")!)).toBe(Date.parse("2026-11-25T06:00:00Z"));
  });

  it("take the offset in force on that day across a daylight-saving change", () => {
    expect(zonedInstant("2026-07-01", "12:00", "America/New_York")).toBe("2026-07-01T12:00:00-04:00");
    expect(zonedInstant("2026-12-01", "12:00", "America/New_York")).toBe("2026-12-01T12:00:00-05:00");
  });

  it("refuse malformed input and step days over month and year ends", () => {
    expect(zonedInstant("25/11/2026", "10:00", "UTC")).toBeUndefined();
    expect(zonedInstant("2026-11-25", "7pm", "UTC")).toBeUndefined();
    expect(nextDay("2026-12-31")).toBe("2027-01-01");
    expect(nextDay("2028-02-28")).toBe("2028-02-29");
  });
});
