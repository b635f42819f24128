// The card checks, once: the payment page runs them in the browser (the checkout script embeds their
// source) and again in the facade before anything reaches the core, and the core applies them for
// every caller; so the live hints, the page's re-check and the core cannot disagree. They must stay
// self-contained: no imports, no closures over module state.

export type CardBrand = "visa" | "mastercard" | "amex" | "discover" | "diners" | "jcb";

/** The digits of what the customer typed, ignoring the spaces and dashes people put in card numbers. */
export function cardDigits(input: string): string {
  return /^[\d\s-]*$/.test(input) ? input.replace(/[\s-]/g, "") : "";
}

/** The brand its leading digits announce, as soon as they do (IIN ranges). */
export function cardBrand(digits: string): CardBrand | undefined {
  if (/^4/.test(digits)) return "visa";
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  if (/^3(0[0-5]|[689])/.test(digits)) return "diners";
  if (/^35(2[89]|[3-8])/.test(digits)) return "jcb";
  if (/^(6011|64[4-9]|65)/.test(digits)) return "discover";
  return undefined;
}

/** Luhn checksum over 12 to 19 digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
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

/** "MM/YY", "MM / YY", "MMYY" or "MM/YYYY" → month and four-digit year; undefined when unreadable. */
export function parseExpiry(input: string): { month: number; year: number } | undefined {
  const m = /^\s*(\d{1,2})\s*[/-]?\s*(\d{2}|\d{4})\s*$/.exec(input);
  if (!m) return undefined;
  const month = Number(m[1]);
  const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  return month >= 1 && month <= 12 ? { month, year } : undefined;
}

/** A card is good through the last day of its expiry month. */
export function expiryInFuture(expiry: { month: number; year: number }, now: Date): boolean {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  return expiry.year > year || (expiry.year === year && expiry.month >= month);
}

/** The security code: 4 digits on American Express, 3 or 4 on other cards. */
export function cvcValid(digits: string, cvc: string): boolean {
  return (cardBrand(digits) === "amex" ? /^\d{4}$/ : /^\d{3,4}$/).test(cvc);
}

/** The name on the card (already trimmed): present, and at most the 100 characters processors take. */
export function holderNameValid(name: string): boolean {
  return name.length > 0 && name.length <= 100;
}
