import { defineEntity, p } from "@mikro-orm/core";
import { Merchant } from "./merchant.ts";

/**
 * A merchant's logo (at most one), kept apart from `merchants` so reading a merchant never loads its
 * bytes. `content` is what was accepted (a PNG as uploaded, an SVG as sanitised); `sha256` is its
 * digest, the name the facade serves it under (/assets/logos/<sha256>.<ext>).
 */
export const MerchantLogo = defineEntity({
  name: "MerchantLogo",
  tableName: "merchant_logos",
  properties: {
    merchant_id: p.manyToOne(Merchant).primary().fieldName("merchant_id").columnType("text").mapToPk().foreignKeyName("merchant_logos_merchant_id_fkey"),
    content_type: p.text().check("content_type in ('image/png', 'image/svg+xml')"),
    content: p.type("blob").columnType("bytea"),
    sha256: p.text(),
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    updated_at: p.datetime(3),
  },
  indexes: [{ name: "merchant_logos_sha256_idx", properties: "sha256" }],
});
