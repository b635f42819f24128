import { db } from "../../db/orm.ts";
import type { PublicCaller } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import type { Tx } from "../unit-of-work.ts";
import { HEX_COLOR, textOn } from "../../../../proto/contrast.ts";
import { logoPath } from "./merchant-settings.ts";

/**
 * What the hosted payment and link pages show of a merchant's branding. Colours are the stored,
 * validated #rrggbb (checked again here: the facade writes them into a stylesheet), each with the
 * text colour the pages put on it.
 */
export interface PageBranding {
  brand_color: string | null;
  brand_text_color: string | null;
  accent_color: string | null;
  accent_text_color: string | null;
  logo_url: string | null;
}

export interface BrandingColumns {
  brand_color: string | null;
  accent_color: string | null;
  logo_sha256: string | null;
  logo_type: string | null;
}

export function pageBranding(row: BrandingColumns): PageBranding {
  const brand = row.brand_color !== null && HEX_COLOR.test(row.brand_color) ? row.brand_color : null;
  const accent = row.accent_color !== null && HEX_COLOR.test(row.accent_color) ? row.accent_color : null;
  return {
    brand_color: brand,
    brand_text_color: brand && textOn(brand).text,
    accent_color: accent,
    accent_text_color: accent && textOn(accent).text,
    logo_url: row.logo_sha256 && row.logo_type ? logoPath(row.logo_sha256, row.logo_type) : null,
  };
}

/** The merchant's branding in one query (its colours and its logo's name, never the logo's bytes). */
export async function readPageBranding(tx: Tx, merchantId: string): Promise<PageBranding> {
  const row = await db(tx)
    .selectFrom("merchants")
    .leftJoin("merchant_logos", "merchant_logos.merchant_id", "merchants.id")
    .select(["merchants.brand_color", "merchants.accent_color", "merchant_logos.sha256 as logo_sha256", "merchant_logos.content_type as logo_type"])
    .where("merchants.id", "=", merchantId)
    .executeTakeFirst();
  return pageBranding(row ?? { brand_color: null, accent_color: null, logo_sha256: null, logo_type: null });
}

export interface ServedLogo {
  found: boolean;
  content_type: string;
  content: Buffer;
}

/** A logo by its digest, for the facade's /assets/logos/<sha256>.<ext> (found false when no merchant has it now). */
export async function getLogo(_deps: CoreDeps, tx: Tx, _caller: PublicCaller, sha256: string): Promise<ServedLogo> {
  if (!/^[0-9a-f]{64}$/.test(sha256)) return { found: false, content_type: "", content: Buffer.alloc(0) };
  const row = await db(tx).selectFrom("merchant_logos").select(["content_type", "content"]).where("sha256", "=", sha256).limit(1).executeTakeFirst();
  return row
    ? { found: true, content_type: row.content_type, content: Buffer.from(row.content) }
    : { found: false, content_type: "", content: Buffer.alloc(0) };
}
