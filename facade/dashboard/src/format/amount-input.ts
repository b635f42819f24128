// What a person types as an amount ("150", "1,500.5", "25.00") read into the API's integer minor
// units, and back: string arithmetic only, so no float ever stands between the form and the API.

/** Both currencies the dashboard handles have two decimals (proto/format-money.ts assumes the same). */
const DECIMALS = 2;

/**
 * "1,500.5" → "150050"; undefined when the text is not an amount of at most two decimals (a sign,
 * letters, two points, three decimals). Group commas and spaces are ignored; "0" and "0.00" are "0".
 */
export function minorFromDecimal(text: string): string | undefined {
  const compact = text.trim().replace(/[\s,]/g, "");
  const match = /^(\d+)(?:\.(\d*))?$/.exec(compact) ?? /^()\.(\d+)$/.exec(compact);
  if (!match) return undefined;
  const fraction = match[2] ?? "";
  if (fraction.length > DECIMALS) return undefined;
  const digits = `${match[1]}${fraction.padEnd(DECIMALS, "0")}`.replace(/^0+(?=\d)/, "");
  return digits === "" ? "0" : digits;
}

/** "150050" → "1500.50": what a form field shows for an amount the API sent. */
export function decimalFromMinor(minor: string): string {
  if (!/^\d+$/.test(minor)) throw new RangeError(`not an amount in minor units: "${minor}"`);
  const digits = minor.replace(/^0+(?=\d)/, "").padStart(DECIMALS + 1, "0");
  return `${digits.slice(0, -DECIMALS)}.${digits.slice(-DECIMALS)}`;
}
