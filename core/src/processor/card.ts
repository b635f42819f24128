import { cardBrand as brandOf, cvcValid, expiryInFuture, holderNameValid, luhnValid } from "../../../proto/card-checks.ts";
import { fail } from "../domain/errors.ts";

/** What the customer typed. It travels to the processor and is forgotten: only `brand` and `last4` are kept. */
export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  holderName: string;
}

/** A brand the leading digits announce, or "unknown" for a valid number of another network. */
export type CardBrand = NonNullable<ReturnType<typeof brandOf>> | "unknown";

/** The parts of a card that may be stored, shown and logged. */
export interface CardSummary {
  brand: CardBrand;
  last4: string;
}

/**
 * Checks a card as the page does (the core checks again: other callers reach it too). Messages never
 * repeat the number, so a rejected card cannot end up in a log line through its error.
 */
export function readCard(
  input: { number: string; exp_month: number; exp_year: number; cvc: string; holder_name: string },
  now: Date,
): CardDetails & CardSummary {
  const number = input.number.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) fail("validation_error", "card.number is not a valid card number.");
  const month = input.exp_month;
  if (!Number.isInteger(month) || month < 1 || month > 12) fail("validation_error", "card.exp_month must be 1 to 12.");
  const year = input.exp_year < 100 ? 2000 + input.exp_year : input.exp_year;
  if (!Number.isInteger(year) || year < 2000 || year > 2100) fail("validation_error", "card.exp_year must be a year such as 2030.");
  if (!expiryInFuture({ month, year }, now)) fail("validation_error", "The card has expired.");
  if (!cvcValid(number, input.cvc)) fail("validation_error", "card.cvc must be 4 digits on American Express cards, 3 or 4 on others.");
  const holderName = input.holder_name.trim();
  if (!holderNameValid(holderName)) fail("validation_error", "card.holder_name must be 1 to 100 characters.");
  if (holderName.includes("\u0000")) fail("validation_error", "card.holder_name must not contain NUL.");
  return { number, expMonth: month, expYear: year, cvc: input.cvc, holderName, brand: brandOf(number) ?? "unknown", last4: number.slice(-4) };
}
