import { currencyCodec, methodTypeCodec, modeCodec } from "../../../proto/enums.ts";
import {
  AdminServiceService,
  type AdminServiceServer,
  type CreateApiKeyRequest,
  type CreateMerchantRequest,
  type InviteUserRequest,
  type SetEmbedOriginsRequest,
  type SimulatePaymentRequest,
} from "../../../proto/gen/paytami/v1/admin.ts";
import type { IssuedApiKey, RolledApiKey } from "../domain/api-keys.ts";
import type { CoreDeps } from "../domain/deps.ts";
import type { CreatedMerchant } from "../domain/merchants.ts";
import { admin } from "../operations/admin.ts";
import { dashboardTeam } from "../operations/dashboard-team.ts";
import { payments } from "../operations/payments.ts";
import { operator } from "./caller.ts";
import { call, serviceOf } from "./method-table.ts";
import { toPaymentMessage } from "./payment-service.ts";
import { byId } from "./requests.ts";

const merchantInput = (request: CreateMerchantRequest) => ({
  name: request.name,
  currencies: request.currencies.map(currencyCodec.requestText),
  methods: request.methods.map(methodTypeCodec.requestText),
});
const createdMerchant = (created: CreatedMerchant) => ({ merchant_id: created.merchantId, test_api_key: created.testApiKey, live_api_key: created.liveApiKey });
const keyInput = (request: CreateApiKeyRequest) => ({
  merchantId: request.merchant_id,
  mode: modeCodec.requestText(request.mode),
  expiresAt: request.expires_at,
});
const issuedKey = (key: IssuedApiKey) => ({ id: key.id, api_key: key.apiKey, mode: modeCodec.fromWire(key.mode), expires_at: key.expiresAt?.toISOString() });
const stepInput = (request: SimulatePaymentRequest) => ({ paymentId: request.payment_id, step: request.step });
const originsInput = (request: SetEmbedOriginsRequest) => ({ merchantId: request.merchant_id, origins: request.origins });
const originsSet = (set: { merchantId: string; origins: string[] }) => ({ merchant_id: set.merchantId, origins: set.origins });

const inviteInput = (request: InviteUserRequest) => ({ merchantId: request.merchant_id, email: request.email, role: request.role });

export function adminService(deps: CoreDeps): AdminServiceServer {
  return serviceOf(deps, AdminServiceService, {
    createMerchant: call(admin.createMerchant, operator, merchantInput, createdMerchant),
    createApiKey: call(admin.createApiKey, operator, keyInput, issuedKey),
    revokeApiKey: call(admin.revokeApiKey, operator, byId, (revoked) => revoked),
    rollApiKey: call(
      admin.rollApiKey,
      operator,
      (request) => ({ id: request.id, expiresInSeconds: request.expires_in_seconds }),
      (rolled: RolledApiKey) => ({ id: rolled.id, expires_at: rolled.expiresAt.toISOString(), new_key: issuedKey(rolled.replacement) }),
    ),
    simulatePayment: call(payments.simulate, operator, stepInput, (view) => ({ payment: toPaymentMessage(view) })),
    setEmbedOrigins: call(admin.setEmbedOrigins, operator, originsInput, originsSet),
    setReturnOrigins: call(admin.setReturnOrigins, operator, originsInput, originsSet),
    inviteUser: call(dashboardTeam.invite, operator, inviteInput, (invited) => invited),
    resetUserPassword: call(
      dashboardTeam.issueReset,
      operator,
      (request) => ({ email: request.email }),
      (issued) => issued,
    ),
    listUsers: call(
      dashboardTeam.listUsers,
      operator,
      (request) => ({ merchantId: request.merchant_id }),
      (users) => users,
    ),
  });
}
