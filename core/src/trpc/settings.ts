import { z } from "zod";
import { settings } from "../operations/settings.ts";
import { router } from "./init.ts";
import { asIs, mutation, operator, query } from "./operation-procedure.ts";

// settings.*: the operator's twins of dashboard.settings.* for a named merchant (the same operations).
const merchant = { merchant_id: z.string() };
const named = (input: { merchant_id: string }) => ({ merchantId: input.merchant_id });

export const settingsUpdateFields = {
  trade_name: z.string().max(200).optional(),
  brand_color: z.string().max(20).nullable().optional(),
  accent_color: z.string().max(20).nullable().optional(),
  embed_origins: z.array(z.string().max(300)).max(100).optional(),
  time_zone: z.string().max(100).nullable().optional(),
  default_language: z.string().max(10).nullable().optional(),
};

export const logoFields = { content_type: z.string().max(100), data_base64: z.string() };

export const settingsRouter = router({
  get: query(settings.get, z.strictObject(merchant), operator, named, asIs),
  update: mutation(
    settings.update,
    z.strictObject({ ...merchant, ...settingsUpdateFields }),
    operator,
    ({ merchant_id, ...fields }) => ({ merchantId: merchant_id, ...fields }),
    asIs,
  ),
  uploadLogo: mutation(
    settings.uploadLogo,
    z.strictObject({ ...merchant, ...logoFields }),
    operator,
    ({ merchant_id, ...fields }) => ({ merchantId: merchant_id, ...fields }),
    asIs,
  ),
  removeLogo: mutation(settings.removeLogo, z.strictObject(merchant), operator, named, asIs),
});
