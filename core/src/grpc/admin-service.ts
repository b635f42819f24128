import type { AdminServiceServer } from "../../../proto/gen/paytami/v1/admin.ts";
import { createApiKey, revokeApiKey } from "../domain/api-keys.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { createMerchant } from "../domain/merchants.ts";
import { OPERATOR } from "../domain/caller.ts";
import { simulatePayment } from "../domain/simulate-payment.ts";
import { inTransaction } from "../domain/unit-of-work.ts";
import { toPaymentMessage } from "./payment-service.ts";
import { requireInternalToken, unary, type CallContext } from "./unary.ts";

export function adminService(deps: CoreDeps): AdminServiceServer {
  const handle = <Req, Res>(method: string, fn: (request: Req, context: CallContext) => Promise<Res>) =>
    unary<Req, Res>(deps.log, method, async (request, context) => {
      requireInternalToken(context, deps.config.internalToken);
      return fn(request, context);
    });
  return {
    createMerchant: handle("CreateMerchant", async (request) => createMerchant(deps, request)),
    createApiKey: handle("CreateApiKey", async (request) => {
      const key = await createApiKey(deps, { merchantId: request.merchantId, mode: request.mode, expiresAt: request.expiresAt });
      return { id: key.id, apiKey: key.apiKey, mode: key.mode, expiresAt: key.expiresAt?.toISOString() };
    }),
    revokeApiKey: handle("RevokeApiKey", async (request) => revokeApiKey(deps, request.id)),
    simulatePayment: handle("SimulatePayment", async (request) => ({
      payment: toPaymentMessage(await inTransaction(deps, (tx) => simulatePayment(deps, tx, OPERATOR, request.paymentId, request.step))),
    })),
  };
}
