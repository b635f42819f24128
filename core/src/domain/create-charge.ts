import { db } from "../db/orm.ts";
import { unauthorized } from "./api-keys.ts";
import { ACCEPTS_EVERYTHING } from "./charge-policy.ts";
import { insertOnce } from "./create-charge/insert-once.ts";
import { policyHint, rememberPolicy, samePolicy } from "./create-charge/policy-hints.ts";
import type { ChargeRequest, CheckedCharge } from "./create-charge/request.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { replayOrConflict, type IdempotentResult } from "./idempotency.ts";
import type { PaymentView } from "./payment-view.ts";
import type { Tx } from "./unit-of-work.ts";

export type { ChargeOwner } from "./create-charge/owner-kind.ts";
export { apiKeyOwner, linkOwner, merchantOwner } from "./create-charge/owners.ts";
export type { ChargeRequest, CheckedCharge, PaymentDraft } from "./create-charge/request.ts";

// Creating a charge, one reusable piece for every way in (POST /v1/payments, a payment link):
// who owns the charge (create-charge/owner-kind.ts, owners.ts), the one creation statement
// (creation-statement.ts, run by insert-once.ts) and the process's pricing hints (policy-hints.ts).

/**
 * Creates a charge exactly once per idempotency key, in one statement when
 * the request is valid: it resolves the owner, verifies the owner's policy is
 * the one the charge was priced against, claims the key in the owner's scope
 * (waiting for a concurrent holder of the same key) and inserts the payment.
 *
 * The merchant policy is written once, in `check` (priceCharge): the request
 * is first priced against the policy this process last saw for the owner (at
 * first: a merchant that accepts everything); if the owner's policy differs,
 * the statement inserts nothing and returns it, and the charge is priced
 * again against it (a refusal, or a second statement).
 * A request that fails a check before authentication takes the slow path,
 * which authenticates first so the errors keep their order.
 */
export async function createCharge(deps: CoreDeps, tx: Tx, request: ChargeRequest): Promise<IdempotentResult<PaymentView>> {
  const { owner } = request;
  let policy = request.policy ?? policyHint(owner.hint) ?? ACCEPTS_EVERYTHING;
  let checked: CheckedCharge;
  try {
    checked = request.check(policy);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // Authenticate first so the errors keep their order; then the merchant's own policy decides
    // (it may refuse earlier in the order, e.g. its currency before the amount, or accept what a stale hint refused).
    const found = (await owner.kind.lookup.run(db(tx), owner.values)).rows[0];
    if (!found) throw unauthorized();
    policy = rememberPolicy(owner.hint, found);
    checked = request.check(policy);
  }
  for (;;) {
    const result = await insertOnce(deps, tx, owner, request.idempotencyKey, policy, checked);
    if (!result.owner) throw unauthorized();
    if (result.created) return { value: result.view, replayed: false };
    if (samePolicy(result.owner, policy)) return replayOrConflict(tx, result.owner.scope, request.idempotencyKey, checked.fingerprint);
    // Priced against the wrong policy: price again against the merchant's own; it refuses, or the next pass inserts.
    policy = rememberPolicy(owner.hint, result.owner);
    checked = request.check(policy);
  }
}
