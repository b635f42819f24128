import { z } from "zod";
import { defineOperation } from "../domain/operation.ts";
import { getSettings, removeLogo, updateSettings, uploadLogo } from "../domain/settings/merchant-settings.ts";
import { getLogo } from "../domain/settings/page-branding.ts";

// A merchant's settings (profile, branding, logo, embed origins, time zone, language): the operator
// names the merchant (`paytami settings get|set`, tRPC settings.*); an admin or owner
// changes its own from the dashboard's Settings page (DESIGN §5: settings are admin and up).
const named = { merchantId: z.string().optional() };

export const settings = {
  get: defineOperation({
    name: "get_merchant_settings",
    callers: ["operator", "session"],
    role: "admin",
    input: z.strictObject(named),
    transaction: "read",
    run: getSettings,
  }),
  update: defineOperation({
    name: "update_merchant_settings",
    callers: ["operator", "session"],
    role: "admin",
    // Each field's meaning is the domain's to check (its messages name the field and, for colours, the contrast).
    input: z.strictObject({
      ...named,
      trade_name: z.string().optional(),
      brand_color: z.string().nullable().optional(),
      accent_color: z.string().nullable().optional(),
      embed_origins: z.array(z.string()).optional(),
      time_zone: z.string().nullable().optional(),
      default_language: z.string().nullable().optional(),
    }),
    transaction: "transaction",
    run: updateSettings,
  }),
  uploadLogo: defineOperation({
    name: "upload_logo",
    callers: ["operator", "session"],
    role: "admin",
    input: z.strictObject({ ...named, content_type: z.string(), data_base64: z.string() }),
    transaction: "transaction",
    run: uploadLogo,
  }),
  removeLogo: defineOperation({
    name: "remove_logo",
    callers: ["operator", "session"],
    role: "admin",
    input: z.strictObject(named),
    transaction: "transaction",
    run: removeLogo,
  }),
  // The facade serves a logo to any browser by its digest (the hosted pages show it).
  logo: defineOperation({ name: "get_logo", callers: ["public"], input: z.string(), transaction: "read", run: getLogo }),
};
