import type { PageBranding } from "../../../proto/gen/paytami/v1/branding.ts";

// A merchant's branding on the hosted pages. The pages' CSP allows styles from 'self' only (no
// inline style at all), so the colours travel in the path of a stylesheet the facade writes:
// /assets/brand/<brand>-<text>-<accent>-<text>.css, each part six hex digits or "none". The path is
// the content (immutable, cacheable for good), and only [0-9a-f]{6} ever reaches the CSS.

const HEX = /^#[0-9a-f]{6}$/;
const LOGO_PATH = /^\/assets\/logos\/[0-9a-f]{64}\.(png|svg)$/;

export interface PageBrand {
  /** The button colour and the text on it. */
  brand?: { background: string; text: string } | undefined;
  /** The header band's colour and the text on it. */
  accent?: { background: string; text: string } | undefined;
  /** The logo's path on this facade. */
  logoUrl?: string | undefined;
}

function pair(background: string | undefined, text: string | undefined): { background: string; text: string } | undefined {
  return background && text && HEX.test(background) && HEX.test(text) ? { background, text } : undefined;
}

/** The core's answer in the pages' terms; anything not exactly a colour or a logo path is left out. */
export function toPageBrand(branding: PageBranding | undefined): PageBrand {
  if (!branding) return {};
  return {
    brand: pair(branding.brand_color, branding.brand_text_color),
    accent: pair(branding.accent_color, branding.accent_text_color),
    logoUrl: branding.logo_url && LOGO_PATH.test(branding.logo_url) ? branding.logo_url : undefined,
  };
}

const part = (color: { background: string; text: string } | undefined) => (color ? `${color.background.slice(1)}-${color.text.slice(1)}` : "none-none");

/** The brand stylesheet's path, or undefined when the merchant chose no colour. */
export function brandStylesheetPath(brand: PageBrand): string | undefined {
  if (!brand.brand && !brand.accent) return undefined;
  return `/assets/brand/${part(brand.brand)}-${part(brand.accent)}.css`;
}

const FILE = /^(?:([0-9a-f]{6})-([0-9a-f]{6})|none-none)-(?:([0-9a-f]{6})-([0-9a-f]{6})|none-none)\.css$/;

/** The stylesheet a brand path names, or undefined when the name is not one this facade makes. */
export function brandStylesheet(file: string): string | undefined {
  const match = FILE.exec(file);
  if (!match) return undefined;
  const [, brand, brandText, accent, accentText] = match;
  let css = "";
  if (brand && brandText) {
    css += `a.button:not(.secondary), button.button:not(.secondary):not(:disabled) { background: #${brand}; border-color: #${brand}; color: #${brandText}; }\n`;
  }
  if (accent && accentText) css += `.brand-bar { background: #${accent}; color: #${accentText}; }\n`;
  return css || undefined;
}
