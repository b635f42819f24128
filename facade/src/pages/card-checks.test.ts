import { describe, expect, it } from "vitest";
import { cardBrand, cardDigits, cvcValid, expiryInFuture, holderNameValid, luhnValid, parseExpiry } from "../../../proto/card-checks.ts";
import { checkCardForm } from "./card-form.ts";

const NOW = new Date("2026-11-22T12:00:00Z");

describe("card checks", () => {
  it("accepts the sandbox's test cards and refuses a one-digit slip", () => {
    for (const n of [
      "4242424242424242",
      "4000000000000002",
      "4000000000009995",
      "4000000000003220",
      "4000000000000119",
      "5555555555554444",
      "378282246310005",
    ]) {
      expect(luhnValid(n), n).toBe(true);
    }
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(luhnValid("42424242")).toBe(false);
    expect(luhnValid("4242a24242424242")).toBe(false);
  });

  it("reads numbers as people type them", () => {
    expect(cardDigits("4242 4242-4242 4242")).toBe("4242424242424242");
    expect(cardDigits("4242x")).toBe("");
  });

  it("names the brand from the first digits", () => {
    expect(cardBrand("4")).toBe("visa");
    expect(cardBrand("5555")).toBe("mastercard");
    expect(cardBrand("2221")).toBe("mastercard");
    expect(cardBrand("2720")).toBe("mastercard");
    expect(cardBrand("2721")).toBeUndefined();
    expect(cardBrand("2220")).toBeUndefined();
    expect(cardBrand("37")).toBe("amex");
    expect(cardBrand("6011")).toBe("discover");
    expect(cardBrand("9")).toBeUndefined();
  });

  it("reads expiry dates and keeps a card good through its last month", () => {
    expect(parseExpiry("08/29")).toEqual({ month: 8, year: 2029 });
    expect(parseExpiry(" 8 / 2029 ")).toEqual({ month: 8, year: 2029 });
    expect(parseExpiry("0829")).toEqual({ month: 8, year: 2029 });
    expect(parseExpiry("13/29")).toBeUndefined();
    expect(parseExpiry("00/29")).toBeUndefined();
    expect(parseExpiry("tomorrow")).toBeUndefined();
    expect(expiryInFuture({ month: 11, year: 2026 }, NOW)).toBe(true);
    expect(expiryInFuture({ month: 10, year: 2026 }, NOW)).toBe(false);
    expect(expiryInFuture({ month: 1, year: 2027 }, NOW)).toBe(true);
  });

  it("the server's re-check names every wrong field and passes a good card on", () => {
    expect(checkCardForm({ card_number: "4242 4242 4242 4241", card_expiry: "10/26", card_cvc: "12", card_name: " " }, NOW)).toEqual({
      ok: false,
      errors: { card_number: "numberInvalid", card_expiry: "expiryPast", card_cvc: "cvcInvalid", card_name: "nameRequired" },
    });
    expect(checkCardForm({ card_number: "378282246310005", card_expiry: "12/30", card_cvc: "123", card_name: "A" }, NOW)).toEqual({
      ok: false,
      errors: { card_cvc: "cvcInvalid" },
    });
    expect(checkCardForm({ card_number: "4242 4242 4242 4242", card_expiry: "12/30", card_cvc: "123", card_name: " Ana López " }, NOW)).toEqual({
      ok: true,
      card: { number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123", holder_name: "Ana López" },
    });
  });
});

describe("the rules the page, the facade and the core share", () => {
  it("wants 4 CVC digits on American Express and 3 or 4 on other cards", () => {
    expect(cvcValid("378282246310005", "1234")).toBe(true);
    expect(cvcValid("378282246310005", "123")).toBe(false);
    expect(cvcValid("4242424242424242", "123")).toBe(true);
    expect(cvcValid("4242424242424242", "1234")).toBe(true);
    expect(cvcValid("4242424242424242", "12")).toBe(false);
    expect(cvcValid("4242424242424242", "12a")).toBe(false);
  });

  it("takes a cardholder name of 1 to 100 characters", () => {
    expect(holderNameValid("Ana López")).toBe(true);
    expect(holderNameValid("")).toBe(false);
    expect(holderNameValid("a".repeat(100))).toBe(true);
    expect(holderNameValid("a".repeat(101))).toBe(false);
  });
});
