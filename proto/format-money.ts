// Amounts as people read them, from the integer minor units every API carries. Shared by the
// facade's pages and the core's dashboard views and CSV export. String arithmetic only, never a float.

const SYMBOL: Record<string, string> = { GTQ: "Q", USD: "US$" };

/** "123456" → "1234.56", "-5" → "-0.05" (both currencies have two decimals). */
export function decimalAmount(amountMinor: string | bigint): string {
  const text = String(amountMinor);
  const negative = text.startsWith("-");
  const digits = (negative ? text.slice(1) : text).padStart(3, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** "123456" GTQ → "Q 1,234.56"; "-5000" USD → "-US$ 50.00". */
export function formatMoney(amountMinor: string | bigint, currency: string): string {
  const decimal = decimalAmount(amountMinor);
  const negative = decimal.startsWith("-");
  const [major, minor] = (negative ? decimal.slice(1) : decimal).split(".");
  return `${negative ? "-" : ""}${SYMBOL[currency] ?? currency} ${major!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${minor}`;
}

/** An amount in the three forms the dashboard shows or exports. */
export interface MoneyView {
  /** Integer minor units, as the API carries them. */
  minor: string;
  /** Major units with two decimals: "1234.56". */
  decimal: string;
  /** "Q 1,234.56". */
  formatted: string;
}

export function moneyView(amountMinor: string | bigint, currency: string): MoneyView {
  return { minor: String(amountMinor), decimal: decimalAmount(amountMinor), formatted: formatMoney(amountMinor, currency) };
}
