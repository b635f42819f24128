import { describe, expect, it } from "vitest";
import { parseAmount, serviceFee } from "./money.ts";

describe("parseAmount", () => {
  it.each(["0", "1", "500", "9999999999999999"])("accepts %s", (text) => {
    expect(parseAmount(text)).toBe(BigInt(text));
  });
  it.each(["", "-1", "01", "1.5", "1e3", " 1", "10000000000000000", "+5", "0x10"])("rejects %j", (text) => {
    expect(parseAmount(text)).toBeUndefined();
  });
});

describe("serviceFee", () => {
  const cardGtq = { basisPoints: 350n, fixed: 200n, minimum: 0n };
  const bank = { basisPoints: 100n, fixed: 0n, minimum: 300n };
  it("rounds the percentage part half-up", () => {
    expect(serviceFee(1_000_100n, cardGtq)).toBe(35_204n); // 35 003.5 → 35 004
    expect(serviceFee(10_000n, cardGtq)).toBe(550n);
    expect(serviceFee(1_010n, cardGtq)).toBe(235n); // 35.35 → 35
    expect(serviceFee(1_030n, cardGtq)).toBe(236n); // 36.05 → 36
    expect(serviceFee(1_100n, cardGtq)).toBe(239n); // 38.5 → 39
  });
  it("applies the bank-transfer minimum", () => {
    expect(serviceFee(500n, bank)).toBe(300n);
    expect(serviceFee(30_000n, bank)).toBe(300n);
    expect(serviceFee(30_050n, bank)).toBe(301n); // 300.5 → 301
  });
  it("never exceeds the amount", () => {
    expect(serviceFee(150n, cardGtq)).toBe(150n);
  });
});
