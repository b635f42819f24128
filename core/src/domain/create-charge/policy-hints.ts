import { ACCEPTS_EVERYTHING, type MerchantPolicy } from "../charge-policy.ts";

// The policy each owner had when last seen, so a merchant with a narrower policy than
// ACCEPTS_EVERYTHING is priced right the first time and keeps its single round trip. Only a
// hint: the statement checks the policy it was priced against, so a stale hint costs one more
// statement, never a wrong charge. Bounded; the oldest entries go first.
const POLICY_HINTS_MAX = 10_000;
const policyHints = new Map<string, MerchantPolicy>();

/** The policy `hint`'s owner had when this process last saw it, if narrower than ACCEPTS_EVERYTHING. */
export function policyHint(hint: string): MerchantPolicy | undefined {
  return policyHints.get(hint);
}

export function rememberPolicy(hint: string, row: MerchantPolicy): MerchantPolicy {
  const policy = { currencies: [...row.currencies], methods: [...row.methods] };
  policyHints.delete(hint);
  if (samePolicy(policy, ACCEPTS_EVERYTHING)) return policy;
  policyHints.set(hint, policy);
  if (policyHints.size > POLICY_HINTS_MAX) policyHints.delete(policyHints.keys().next().value!);
  return policy;
}

export function samePolicy(a: MerchantPolicy, b: MerchantPolicy): boolean {
  const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((v) => y.includes(v));
  return same(a.currencies, b.currencies) && same(a.methods, b.methods);
}
