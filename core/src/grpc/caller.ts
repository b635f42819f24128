// Where a gRPC method finds its caller: the call's credentials (the process's, checked by `unary`,
// and a merchant's API key in `authorization`) and, for the operator, the merchant a request acts
// for. The sources only say who asks; which callers may run an operation is its declaration's to
// say, and the runner's to check.
import { modeCodec } from "../../../proto/enums.ts";
import type { Mode } from "../../../proto/gen/paytami/v1/enums.ts";
import { parseMode, presentApiKey } from "../domain/api-keys.ts";
import {
  merchantCaller,
  PUBLIC,
  type MerchantCaller,
  type PresentedCredential,
  type PublicCaller,
  type ServiceCaller,
  type ServiceName,
} from "../domain/caller.ts";
import { fail } from "../domain/errors.ts";
import { bearerToken } from "../http/bearer-token.ts";
import type { CallerSource } from "./method-table.ts";
import type { CallContext } from "./unary.ts";

/** A request's `acting_for` (or a request's own merchant_id and mode, which name the same). */
export interface ActingFor {
  merchant_id?: string | undefined;
  mode?: Mode | undefined;
}

/** Any process but the operator: never one an operation acting for a merchant declares. */
type OtherProcess = ServiceCaller<Exclude<ServiceName, "operator">>;

/**
 * The merchant the operator acts for. Only the operator's credential may act for a merchant: any
 * other process stays itself, which the runner refuses, before the request is read any further.
 */
function actingMerchant(context: CallContext, acting: ActingFor): MerchantCaller | OtherProcess {
  const process = context.caller;
  if (process.name !== "operator") return process as OtherProcess;
  if (acting.merchant_id === undefined) fail("validation_error", "acting_for.merchant_id is required.");
  return merchantCaller(acting.merchant_id!, parseMode(acting.mode === undefined ? "" : modeCodec.requestText(acting.mode)), "operator");
}

const presentedKey = (context: CallContext): PresentedCredential => presentApiKey(bearerToken(context.authorization));

/** The API key of `authorization: Bearer sk_…`, checked for form only (the runner or the operation resolves it). */
export const apiKey: CallerSource<unknown, PresentedCredential> = { kinds: ["merchant"], resolve: presentedKey };

/** The process whose credential came with the call, for an operation run by processes `kinds` (the allow-list let it in). */
export function processes(...kinds: ServiceName[]): CallerSource<unknown, ServiceCaller> {
  return { kinds, resolve: (context) => context.caller };
}

/** The operator, on its own: its internal token. */
export const operator = processes("operator");

/** A customer's browser, through the facade: no credential at all. */
export const customer: CallerSource<unknown, PublicCaller> = { kinds: ["public"], resolve: () => PUBLIC };

/** A customer's browser at the address the facade saw (what CARD_SUBMIT_LIMIT counts). */
export function customerAt<Req>(clientIp: (request: Req) => string | undefined): CallerSource<Req, PublicCaller> {
  return { kinds: ["public"], resolve: (_context, request) => ({ ...PUBLIC, clientIp: clientIp(request) || undefined }) };
}

/** The operator acting for the merchant and mode the request names. */
export function actingFor<Req>(acting: (request: Req) => ActingFor): CallerSource<Req, MerchantCaller | OtherProcess> {
  return { kinds: ["operator"], resolve: (context, request) => actingMerchant(context, acting(request)) };
}

/** The operator acting for a merchant when the request has an `acting_for`, else the merchant's own API key. */
export function actingForOrApiKey<Req>(
  acting: (request: Req) => ActingFor | undefined,
): CallerSource<Req, MerchantCaller | OtherProcess | PresentedCredential> {
  return {
    kinds: ["merchant", "operator"],
    resolve: (context, request) => {
      const named = acting(request);
      return named ? actingMerchant(context, named) : presentedKey(context);
    },
  };
}

/**
 * As `actingForOrApiKey`, and an `acting_for` naming no merchant is the operator on its own (who
 * may see any merchant's object by its id).
 */
export function managing<Req>(acting: (request: Req) => ActingFor | undefined): CallerSource<Req, MerchantCaller | ServiceCaller | PresentedCredential> {
  return {
    kinds: ["merchant", "operator"],
    resolve: (context, request) => {
      const named = acting(request);
      if (!named) return presentedKey(context);
      return named.merchant_id === undefined ? context.caller : actingMerchant(context, named);
    },
  };
}
