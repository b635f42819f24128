import { modeCodec } from "../../../proto/enums.ts";
import type { Mode } from "../../../proto/gen/paytami/v1/enums.ts";
import { parseMode, presentApiKey, resolveApiKey } from "../domain/api-keys.ts";
import { merchantCaller, type MerchantCaller, type PresentedCredential } from "../domain/caller.ts";
import { fail } from "../domain/errors.ts";
import { serviceAmong } from "../domain/service-credentials.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { bearerToken } from "../http/bearer-token.ts";
import { withoutTransaction } from "../domain/unit-of-work.ts";
import type { CallContext } from "./unary.ts";

/** The API key of `authorization: Bearer sk_…` metadata, checked for form only (the domain resolves or refuses it). */
export function presentedApiKey(context: CallContext): PresentedCredential {
  return presentApiKey(bearerToken(context.authorization));
}

/** The merchant and mode the call's API key acts for, or `unauthorized`. */
export function merchantFromApiKey(deps: CoreDeps, context: CallContext): Promise<MerchantCaller> {
  const key = presentedApiKey(context);
  return withoutTransaction(deps, (tx) => resolveApiKey(deps, tx, key));
}

/**
 * An operator (the internal token) acting for one merchant in one mode: a request's `acting_for`.
 * Only the operator: the facade's credential reaches some of these methods for the merchant's own
 * API key, and must not stand in for one.
 */
export function actingMerchant(context: CallContext, acting: { merchant_id?: string | undefined; mode?: Mode | undefined }): MerchantCaller {
  serviceAmong(context.caller, ["operator"]);
  if (acting.merchant_id === undefined) fail("validation_error", "acting_for.merchant_id is required.");
  return merchantCaller(acting.merchant_id!, parseMode(acting.mode === undefined ? "" : modeCodec.requestText(acting.mode)));
}
