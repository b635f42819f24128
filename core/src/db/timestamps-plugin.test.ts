import { describe, expect, it } from "vitest";
import { parsePgTimestamp } from "./timestamps-plugin.ts";

describe("parsePgTimestamp", () => {
  it.each([
    ["2026-11-21 05:54:51.68+00", "2026-11-21T05:54:51.680Z"],
    ["2026-11-21 05:54:51+00", "2026-11-21T05:54:51.000Z"],
    ["2026-11-21 00:30:00.123-06", "2026-11-21T06:30:00.123Z"],
    ["2026-11-21 10:00:00.5+05:30", "2026-11-21T04:30:00.500Z"],
  ])("%s → %s", (text, iso) => {
    expect(parsePgTimestamp(text).toISOString()).toBe(iso);
  });
  it("refuses anything else", () => {
    expect(() => parsePgTimestamp("yesterday")).toThrow();
  });
});
