import type { PublicCaller } from "./caller.ts";
import { priceCharge, type MerchantPolicy } from "./charge-policy.ts";
import { createCharge, linkOwner, type CheckedCharge } from "./create-charge.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import {
  checkIdempotencyKeyShape,
  earlierAnswer,
  isIdempotencyKeyShapeValid,
  requestFingerprint,
  requireIdempotencyKey,
  type IdempotentResult,
} from "./idempotency.ts";
import { payLinkInputSchema, payLinkKindsFitting, type LinkKind, type PayLinkInput } from "./link-input.ts";
import { checkLinkReturnUrls } from "./link-return-urls.ts";
import { admitPayAttempt } from "./link-rate-limit.ts";
import { linkNotPayableReason, linkPageUrl, type LinkRow } from "./link-view.ts";
import { unknownLink } from "./links.ts";
import type { Mode } from "../config.ts";
import { parseOrFail } from "./payment-input.ts";
import type { PaymentView } from "./payment-view.ts";
import type { Tx } from "./unit-of-work.ts";

export interface PayLinkCommand {
  linkId: string;
  idempotencyKey?: string | undefined;
  /** The body as the customer's browser sent it (names of the public API); validated here. */
  input: unknown;
  malformed?: string | undefined;
  /** Whom the rate limit counts (the facade's view of the client). */
  clientIp: string;
}

/**
 * POST /v1/payment_links/{id}/pay: a charge with the link's merchant, mode and currency, through the
 * same creation piece as POST /v1/payments. Check order: Idempotency-Key (before the link is even
 * looked up), the link exists, the rate limit, body shape (return URLs on an origin the merchant
 * trusts included), an earlier request with the same key (replayed even when the link has stopped
 * being payable since), the link is payable (inactive → expired → exhausted), amount required,
 * currency, method, the link's amount bounds.
 */
export async function payLink(deps: CoreDeps, tx: Tx, _caller: PublicCaller, command: PayLinkCommand): Promise<IdempotentResult<PaymentView>> {
  const idempotencyKey = requireIdempotencyKey(command.idempotencyKey);
  // A malformed request still counts against its client, but never against the link's customers.
  const wellFormed = command.malformed === undefined && isIdempotencyKeyShapeValid(idempotencyKey);
  const fitting = wellFormed ? payLinkKindsFitting(command.input) : new Map<LinkKind, PayLinkInput>();
  const link = await admitPayAttempt(deps.config, tx, { linkId: command.linkId, clientIp: command.clientIp, fits: [...fitting.keys()] }, deps.now());
  if (!link) throw unknownLink();
  checkIdempotencyKeyShape(idempotencyKey);
  if (command.malformed !== undefined) fail("validation_error", command.malformed);
  const amountType = link.fixed_amount !== null ? "fixed" : "variable";
  // Parsed already when it fits this link's kind; parsed again only to say what is wrong with it.
  const input = fitting.get(`${link.mode as Mode}:${amountType}`) ?? parseOrFail(payLinkInputSchema(link.mode as Mode, amountType), command.input);
  await checkLinkReturnUrls(tx, link, input);
  const fingerprint = requestFingerprint("pay_link", input);
  const reason = linkNotPayableReason(link, deps.now());
  if (reason !== null) {
    const earlier = await earlierAnswer<PaymentView>(tx, link.id, idempotencyKey, fingerprint, deps.now());
    if (earlier) return earlier;
    throw new DomainError("payment_link_not_payable", `This payment link is not payable (${reason}).`);
  }
  if (amountType === "variable" && input.amount === undefined) fail("amount_required", "amount is required: this link lets the customer choose the amount.");
  const policy: MerchantPolicy = { currencies: link.currencies, methods: link.methods };
  const check = (merchant: MerchantPolicy): CheckedCharge => ({ draft: draftFor(deps, link, input, merchant), fingerprint });
  return createCharge(deps, tx, { owner: linkOwner(link.id), idempotencyKey, check, policy });
}

function draftFor(deps: CoreDeps, link: LinkRow, input: PayLinkInput, merchant: MerchantPolicy) {
  const fixed = link.fixed_amount !== null;
  const amount = BigInt(fixed ? link.fixed_amount! : input.amount!);
  const bounds = fixed ? { min: amount, max: amount } : { min: BigInt(link.min_amount!), max: BigInt(link.max_amount!) };
  const fallback = `${linkPageUrl(deps.config, link.id)}/done`;
  return {
    charge: priceCharge(deps.config, merchant, { currency: link.currency, methodType: input.method_type, amount, bounds }),
    // The customer sees what they are paying for on the payment page.
    description: link.title,
    customerEmail: input.customer?.email ?? null,
    customerName: input.customer?.name ?? null,
    successUrl: input.success_url ?? link.success_url ?? fallback,
    cancelUrl: input.cancel_url ?? link.cancel_url ?? fallback,
    linkId: link.id,
  };
}
