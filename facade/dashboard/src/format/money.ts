/** The prefixes DESIGN §5 fixes: `Q 1,500.00`, `US$ 25.00`; another currency shows its code. */
const SYMBOL: Record<string, string> = { GTQ: "Q", USD: "US$" };
/** Minor units per major unit, as digits after the point; both supported currencies have two. */
const DECIMALS: Record<string, number> = { GTQ: 2, USD: 2 };

function decimalsOf(currency: string): number {
  return DECIMALS[currency.toUpperCase()] ?? 2;
}

function grouped(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * An amount in minor units (an integer string as the API sends it, a bigint, or a safe integer) as
 * the dashboard shows it: `formatMinor("150000", "GTQ")` → "Q 1,500.00", negative as "-Q 5.00".
 * String arithmetic only: no float ever touches an amount.
 */
export function formatMinor(amount: string | bigint | number, currency: string): string {
  let text: string;
  if (typeof amount === "number") {
    if (!Number.isSafeInteger(amount)) throw new RangeError(`not an amount in minor units: ${amount}`);
    text = String(amount);
  } else {
    text = String(amount).trim();
  }
  if (!/^-?\d+$/.test(text)) throw new RangeError(`not an amount in minor units: "${text}"`);
  const negative = text.startsWith("-");
  const decimals = decimalsOf(currency);
  const digits = text
    .replace(/^-/, "")
    .replace(/^0+(?=\d)/, "")
    .padStart(decimals + 1, "0");
  const major = grouped(digits.slice(0, digits.length - decimals));
  const minor = decimals > 0 ? `.${digits.slice(-decimals)}` : "";
  const sign = negative && /[1-9]/.test(digits) ? "-" : "";
  return `${sign}${SYMBOL[currency.toUpperCase()] ?? currency.toUpperCase()} ${major}${minor}`;
}

/** A decimal string in major units ("1500", "1500.5", "-25.00") → the same format, exactly (no rounding: extra digits are refused). */
export function formatDecimal(amount: string, currency: string): string {
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(amount.trim());
  const decimals = decimalsOf(currency);
  if (!match || (match[3] ?? "").length > decimals) throw new RangeError(`not an amount of ${currency}: "${amount}"`);
  return formatMinor(`${match[1]}${match[2]}${(match[3] ?? "").padEnd(decimals, "0")}`, currency);
}
