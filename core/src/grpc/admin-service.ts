import { currencyCodec, methodTypeCodec, modeCodec } from "../../../proto/enums.ts";
import type { AdminServiceServer } from "../../../proto/gen/paytami/v1/admin.ts";
import { createApiKey, revokeApiKey } from "../domain/api-keys.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { createMerchant } from "../domain/merchants.ts";
import { setEmbedOrigins, setReturnOrigins } from "../domain/merchant-origins.ts";
import { simulatePayment } from "../domain/simulate-payment.ts";
import { inTransaction } from "../domain/unit-of-work.ts";
import { toPaymentMessage } from "./payment-service.ts";
import { unary, type CallContext } from "./unary.ts";

export function adminService(deps: CoreDeps): AdminServiceServer {
  const handle = <Req, Res>(method: string, fn: (request: Req, context: CallContext) => Promise<Res>) => unary<Req, Res>(deps, method, fn);
  return {
    createMerchant: handle("CreateMerchant", async (request, ctx) => {
      const created = await inTransaction(deps, (tx) => createMerchant(deps, tx, ctx.operator, {
        name: request.name,
        currencies: request.currencies.map(currencyCodec.requestText),
        methods: request.methods.map(methodTypeCodec.requestText),
      }));
      return { merchant_id: created.merchantId, test_api_key: created.testApiKey, live_api_key: created.liveApiKey };
    }),
    createApiKey: handle("CreateApiKey", async (request, ctx) => {
      const input = { merchantId: request.merchant_id, mode: modeCodec.requestText(request.mode), expiresAt: request.expires_at };
      const key = await inTransaction(deps, (tx) => createApiKey(deps, tx, ctx.operator, input));
      return { id: key.id, api_key: key.apiKey, mode: modeCodec.fromWire(key.mode), expires_at: key.expiresAt?.toISOString() };
    }),
    revokeApiKey: handle("RevokeApiKey", async (request, ctx) => inTransaction(deps, (tx) => revokeApiKey(deps, tx, ctx.operator, request.id))),
    simulatePayment: handle("SimulatePayment", async (request, ctx) => ({
      payment: toPaymentMessage(await inTransaction(deps, (tx) => simulatePayment(deps, tx, ctx.operator, request.payment_id, request.step))),
    })),
    setEmbedOrigins: handle("SetEmbedOrigins", async (request, ctx) => {
      const set = await inTransaction(deps, (tx) => setEmbedOrigins(deps, tx, ctx.operator, { merchantId: request.merchant_id, origins: request.origins }));
      return { merchant_id: set.merchantId, origins: set.origins };
    }),
    setReturnOrigins: handle("SetReturnOrigins", async (request, ctx) => {
      const set = await inTransaction(deps, (tx) => setReturnOrigins(deps, tx, ctx.operator, { merchantId: request.merchant_id, origins: request.origins }));
      return { merchant_id: set.merchantId, origins: set.origins };
    }),
  };
}
