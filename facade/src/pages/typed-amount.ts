/**
 * What a customer types into the amount field, in minor units: "150", "150.5", "150.50", "Q150",
 * "Q 1,500.00", "US$ 12". Digits are read as text and joined, never through a float, so
 * "0.29" is 29 and not 28.999…; anything else (three decimals, a misplaced comma, letters) is
 * undefined. Bounds are not checked here: the core checks them against the link.
 */
export function parseTypedAmount(typed: string, currency: string): string | undefined {
  let text = typed.normalize("NFKC").trim();
  const symbol = SYMBOLS[currency]?.find((s) => text.toUpperCase().startsWith(s.toUpperCase()));
  if (symbol) text = text.slice(symbol.length).trim();
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text) ?? /^()\.(\d{1,2})$/.exec(text);
  if (!match) return undefined;
  const major = (match[1] ?? "").replace(/,/g, "");
  const minor = (match[2] ?? "").padEnd(2, "0");
  // Leading zeros go; an amount longer than money ever is stays long, and the core calls it too large.
  return `${major}${minor}`.replace(/^0+(?=\d)/, "");
}

// The signs people put in front of an amount, longest first so "US$" wins over "$".
const SYMBOLS: Record<string, readonly string[]> = {
  GTQ: ["GTQ", "Q.", "Q"],
  USD: ["USD", "US$", "$"],
};
