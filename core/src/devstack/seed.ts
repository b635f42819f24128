// The sandbox merchant that `npm start` hands to the operator. Re-used across restarts as long as
// its test key still authenticates (same database), so the key in people's notes keeps working.
import type { CoreConnection } from "../cli/core-client.ts";
import { CoreError } from "../cli/core-client.ts";
import type { DevJson } from "./dev-json.ts";

export interface SandboxMerchant {
  merchant_id: string;
  test_api_key: string;
  live_api_key: string;
  reused: boolean;
}

export const SANDBOX_MERCHANT_NAME = "Sandbox Merchant";

async function stillValid(core: CoreConnection, previous: Partial<DevJson> | null): Promise<boolean> {
  if (!previous?.merchant_id || !previous.test_api_key || !previous.live_api_key) return false;
  try {
    const auth = await core.call(core.payments.authenticate.bind(core.payments), {}, core.bearerMetadata(previous.test_api_key));
    return auth.merchantId === previous.merchant_id;
  } catch (error) {
    if (error instanceof CoreError && error.code === "unauthorized") return false;
    throw error;
  }
}

export async function seedSandboxMerchant(core: CoreConnection, previous: Partial<DevJson> | null): Promise<SandboxMerchant> {
  if (await stillValid(core, previous)) {
    return { merchant_id: previous!.merchant_id!, test_api_key: previous!.test_api_key!, live_api_key: previous!.live_api_key!, reused: true };
  }
  // Empty lists = every supported currency and method.
  const created = await core.call(
    core.admin.createMerchant.bind(core.admin),
    { name: SANDBOX_MERCHANT_NAME, currencies: [], methods: [] },
    core.internalMetadata(),
  );
  return { merchant_id: created.merchantId, test_api_key: created.testApiKey, live_api_key: created.liveApiKey, reused: false };
}
