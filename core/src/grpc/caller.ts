import { presentApiKey, resolveApiKey } from "../domain/api-keys.ts";
import type { MerchantCaller, PresentedCredential } from "../domain/caller.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { withoutTransaction } from "../domain/unit-of-work.ts";
import type { CallContext } from "./unary.ts";

/** The API key of `authorization: Bearer sk_…` metadata, checked for form only (the domain resolves or refuses it). */
export function presentedApiKey(context: CallContext): PresentedCredential {
  return presentApiKey(/^Bearer (\S+)$/.exec(context.authorization ?? "")?.[1]);
}

/** The merchant and mode the call's API key acts for, or `unauthorized`. */
export function merchantFromApiKey(deps: CoreDeps, context: CallContext): Promise<MerchantCaller> {
  const key = presentedApiKey(context);
  return withoutTransaction(deps, (tx) => resolveApiKey(deps, tx, key));
}
