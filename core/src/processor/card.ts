import { fail } from "../domain/errors.ts";

/** What the customer typed. It travels to the processor and is forgotten: only `brand` and `last4` are kept. */
export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  holderName: string;
}

export type CardBrand = "visa" | "mastercard" | "amex" | "unknown";

/** The parts of a card that may be stored, shown and logged. */
export interface CardSummary {
  brand: CardBrand;
  last4: string;
}

export function cardBrand(digits: string): CardBrand {
  if (/^4/.test(digits)) return "visa";
  if (/^(5[1-5]|2(2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  return "unknown";
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Checks a card as the page does (the core checks again: other callers reach it too). Messages never
 * repeat the number, so a rejected card cannot end up in a log line through its error.
 */
export function readCard(input: { number: string; exp_month: number; exp_year: number; cvc: string; holder_name: string }, now: Date): CardDetails & CardSummary {
  const number = input.number.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) fail("validation_error", "card.number is not a valid card number.");
  const month = input.exp_month;
  if (!Number.isInteger(month) || month < 1 || month > 12) fail("validation_error", "card.exp_month must be 1 to 12.");
  const year = input.exp_year < 100 ? 2000 + input.exp_year : input.exp_year;
  if (!Number.isInteger(year) || year < 2000 || year > 2100) fail("validation_error", "card.exp_year must be a year such as 2030.");
  // A card is valid through the last day of its expiry month.
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) fail("validation_error", "The card has expired.");
  if (!/^\d{3,4}$/.test(input.cvc)) fail("validation_error", "card.cvc must be 3 or 4 digits.");
  const holderName = input.holder_name.trim();
  if (holderName.length === 0 || holderName.length > 100) fail("validation_error", "card.holder_name must be 1 to 100 characters.");
  if (holderName.includes("\u0000")) fail("validation_error", "card.holder_name must not contain NUL.");
  return { number, expMonth: month, expYear: year, cvc: input.cvc, holderName, brand: cardBrand(number), last4: number.slice(-4) };
}
