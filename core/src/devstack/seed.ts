// The sandbox merchant that `npm start` hands to the operator. Re-used across restarts as long as
// its test key still authenticates (same database), so the key in people's notes keeps working.
import { type CoreClient } from "../../../proto/core-client.ts";
import { CoreError } from "../../../proto/core-error.ts";
import type { DevJson } from "./dev-json.ts";

export interface SandboxMerchant {
  merchant_id: string;
  test_api_key: string;
  live_api_key: string;
  reused: boolean;
}

const SANDBOX_MERCHANT_NAME = "Sandbox Merchant";

// The merchant in the previous dev.json, when its test key still authenticates as that merchant.
async function previousMerchant(core: CoreClient, previous: Partial<DevJson> | null): Promise<SandboxMerchant | null> {
  const { merchant_id, test_api_key, live_api_key } = previous ?? {};
  if (!merchant_id || !test_api_key || !live_api_key) return null;
  try {
    const auth = await core.payments.authenticate({}, { authorization: `Bearer ${test_api_key}` });
    return auth.merchant_id === merchant_id ? { merchant_id, test_api_key, live_api_key, reused: true } : null;
  } catch (error) {
    if (error instanceof CoreError && error.code === "unauthorized") return null;
    throw error;
  }
}

export async function seedSandboxMerchant(core: CoreClient, previous: Partial<DevJson> | null): Promise<SandboxMerchant> {
  const kept = await previousMerchant(core, previous);
  if (kept) return kept;
  // Empty lists = every supported currency and method.
  const created = await core.admin.createMerchant({ name: SANDBOX_MERCHANT_NAME, currencies: [], methods: [] });
  return { ...created, reused: false };
}
