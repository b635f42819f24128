// WCAG 2.x contrast (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio) between a merchant's colour
// and the text the hosted pages write on it. The pages pick white or their own dark text, whichever
// reads better, so a colour is refused only when neither reaches 4.5:1 (AA for body text).

/** The pages' text colours on a brand or accent background (facade/src/pages/stylesheet.ts uses the same dark). Shared by the core (which refuses a colour) and the dashboard (which previews it).. */
export const LIGHT_TEXT = "#ffffff";
export const DARK_TEXT = "#1b1f24";
export const MIN_CONTRAST = 4.5;

export const HEX_COLOR = /^#[0-9a-f]{6}$/;

function channel(byte: number): number {
  const c = byte / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 0xff) + 0.7152 * channel((n >> 8) & 0xff) + 0.0722 * channel(n & 0xff);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Rounded down to two decimals, so a shown 4.50 never hides a 4.499. */
export function shownRatio(ratio: number): string {
  return (Math.floor(ratio * 100) / 100).toFixed(2);
}

export interface TextOn {
  text: typeof LIGHT_TEXT | typeof DARK_TEXT;
  ratio: number;
}

/** The text colour the pages put on `background`: the one with the higher contrast. */
export function textOn(background: string): TextOn {
  const light = contrastRatio(background, LIGHT_TEXT);
  const dark = contrastRatio(background, DARK_TEXT);
  return light >= dark ? { text: LIGHT_TEXT, ratio: light } : { text: DARK_TEXT, ratio: dark };
}
