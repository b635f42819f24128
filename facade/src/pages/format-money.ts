const SYMBOL: Record<string, string> = { GTQ: "Q", USD: "US$" };

/** "123456" GTQ → "Q 1,234.56"; string arithmetic only, never a float. */
export function formatMoney(amountMinor: string, currency: string): string {
  const digits = amountMinor.padStart(3, "0");
  const major = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${SYMBOL[currency] ?? currency} ${major}.${digits.slice(-2)}`;
}
