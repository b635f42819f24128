import { cardDigits, cvcValid, expiryInFuture, holderNameValid, luhnValid, parseExpiry } from "../../../proto/card-checks.ts";

/** The fields of the card form, as the browser posts them (names match the inputs). */
export interface CardFormInput {
  card_number: string;
  card_expiry: string;
  card_cvc: string;
  card_name: string;
}

export const CARD_FIELDS = ["card_number", "card_expiry", "card_cvc", "card_name"] as const;
export type CardField = (typeof CARD_FIELDS)[number];

/** What is wrong with a field, as a message key the page translates. */
export type CardFieldError = "numberInvalid" | "expiryInvalid" | "expiryPast" | "cvcInvalid" | "nameRequired";

export type CardFormResult =
  | { ok: true; card: { number: string; exp_month: number; exp_year: number; cvc: string; holder_name: string } }
  | { ok: false; errors: Partial<Record<CardField, CardFieldError>> };

/** The server's re-check of what the browser may already have checked (a browser without JavaScript checked nothing). */
export function checkCardForm(input: CardFormInput, now: Date): CardFormResult {
  const errors: Partial<Record<CardField, CardFieldError>> = {};
  const number = cardDigits(input.card_number);
  if (!luhnValid(number)) errors.card_number = "numberInvalid";
  const expiry = parseExpiry(input.card_expiry);
  if (!expiry) errors.card_expiry = "expiryInvalid";
  else if (!expiryInFuture(expiry, now)) errors.card_expiry = "expiryPast";
  const cvc = input.card_cvc.trim();
  if (!cvcValid(number, cvc)) errors.card_cvc = "cvcInvalid";
  const name = input.card_name.trim();
  if (!holderNameValid(name)) errors.card_name = "nameRequired";
  if (Object.keys(errors).length > 0 || !expiry) return { ok: false, errors };
  return { ok: true, card: { number, exp_month: expiry.month, exp_year: expiry.year, cvc, holder_name: name } };
}
