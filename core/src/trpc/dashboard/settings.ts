import { z } from "zod";
import { settings } from "../../operations/settings.ts";
import { router } from "../init.ts";
import { asIs, NO_INPUT, sessionMutation, sessionQuery } from "../operation-procedure.ts";
import { logoFields, settingsUpdateFields } from "../settings.ts";

// dashboard.settings.* (admin and up): the merchant is the session's. The logo travels as base64
// inside the JSON body (the facade's DASHBOARD_BODY_LIMIT_BYTES leaves room for the largest one).
export const settingsRouter = router({
  get: sessionQuery(settings.get, NO_INPUT, () => ({}), asIs),
  update: sessionMutation(settings.update, z.strictObject(settingsUpdateFields), asIs, asIs),
  uploadLogo: sessionMutation(settings.uploadLogo, z.strictObject(logoFields), asIs, asIs),
  removeLogo: sessionMutation(settings.removeLogo, NO_INPUT, () => ({}), asIs),
});
