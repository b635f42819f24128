import { readableApiKey } from "./api-keys.ts";
import type { MerchantCaller, PresentedCredential } from "./caller.ts";
import { priceCharge, type MerchantPolicy } from "./charge-policy.ts";
import { apiKeyOwner, createCharge, merchantOwner, type CheckedCharge, type PaymentDraft } from "./create-charge.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { checkIdempotencyKeyShape, requestFingerprint, requireIdempotencyKey, type IdempotentResult } from "./idempotency.ts";
import { parsePaymentInput } from "./payment-input.ts";
import type { PaymentView } from "./payment-view.ts";
import type { Tx } from "./unit-of-work.ts";

export interface CreatePaymentCommand {
  idempotencyKey?: string | undefined;
  /** The request fields as the caller sent them (names of the public API); validated here. */
  input: unknown;
  /** Why the transport could not read the request, if it could not. */
  malformed?: string | undefined;
}

/**
 * POST /v1/payments for an API key (resolved inside the creation statement)
 * or an already resolved merchant. Errors come in DESIGN §4's order:
 * Idempotency-Key, credential, body shape, currency, method, amount limits.
 * The idempotency scope is the merchant and mode.
 */
export async function createPayment(
  deps: CoreDeps,
  tx: Tx,
  payer: PresentedCredential | MerchantCaller,
  command: CreatePaymentCommand,
): Promise<IdempotentResult<PaymentView>> {
  const idempotencyKey = requireIdempotencyKey(command.idempotencyKey);
  const resolved = payer.kind === "merchant" ? payer : readableApiKey(payer);
  const mode = resolved.mode;
  const owner = resolved.kind === "api_key" ? apiKeyOwner(resolved, deps.now()) : merchantOwner(resolved);
  const check = (policy: MerchantPolicy): CheckedCharge => {
    checkIdempotencyKeyShape(idempotencyKey);
    if (command.malformed !== undefined) fail("validation_error", command.malformed);
    const input = parsePaymentInput(mode, command.input);
    const draft: PaymentDraft = {
      charge: priceCharge(deps.config, policy, { currency: input.currency, methodType: input.method_type, amount: BigInt(input.amount) }),
      description: input.description ?? null,
      customerEmail: input.customer?.email ?? null,
      customerName: input.customer?.name ?? null,
      successUrl: input.success_url,
      cancelUrl: input.cancel_url,
      linkId: null,
    };
    return { draft, fingerprint: requestFingerprint("create_payment", input) };
  };
  return createCharge(deps, tx, { owner, idempotencyKey, check });
}
