import { currencyCodec, refundReasonCodec, refundStatusCodec } from "../../../proto/enums.ts";
import type { Refund, RefundServiceServer } from "../../../proto/gen/paytami/v1/refund.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { createRefund, getRefund, listRefunds, type RefundView } from "../domain/refunds.ts";
import { withoutTransaction } from "../domain/unit-of-work.ts";
import { actingMerchant, merchantFromApiKey, presentedApiKey } from "./caller.ts";
import { unary } from "./unary.ts";

/** The one mapping from the domain's Refund to its gRPC message (the facade and CLI map it on to JSON). */
export function toRefundMessage(view: RefundView): Refund {
  return {
    ...view,
    currency: currencyCodec.fromWire(view.currency),
    reason: refundReasonCodec.fromWire(view.reason),
    status: refundStatusCodec.fromWire(view.status),
  };
}

export function refundService(deps: CoreDeps): RefundServiceServer {
  const handle = <Req, Res>(method: string, fn: Parameters<typeof unary<Req, Res>>[2]) => unary<Req, Res>(deps, method, fn);
  return {
    createRefund: handle("CreateRefund", async (request, ctx) => {
      const { acting_for, idempotency_key, malformed_request, ...input } = request;
      // An API key is resolved by the operation, after the Idempotency-Key check (DESIGN's order).
      const creator = acting_for ? actingMerchant(ctx, acting_for) : presentedApiKey(ctx);
      // Its own short transaction, opened after the API key and the body are checked.
      const result = await withoutTransaction(deps, (tx) => createRefund(deps, tx, creator, {
        idempotencyKey: idempotency_key === "" ? undefined : idempotency_key,
        input,
        malformed: malformed_request,
      }));
      return { refund: toRefundMessage(JSON.parse(result.response) as RefundView), replayed: result.replayed };
    }),
    getRefund: handle("GetRefund", async (request, ctx) => {
      const acting = request.acting_for;
      const caller = !acting ? await merchantFromApiKey(deps, ctx) : acting.merchant_id === undefined ? ctx.operator : actingMerchant(ctx, acting);
      return { refund: toRefundMessage(await withoutTransaction(deps, (tx) => getRefund(deps, tx, caller, request.id))) };
    }),
    listRefunds: handle("ListRefunds", async (request, ctx) => {
      const caller = request.acting_for ? actingMerchant(ctx, request.acting_for) : await merchantFromApiKey(deps, ctx);
      const page = await withoutTransaction(deps, (tx) => listRefunds(deps, tx, caller, {
        limit: request.limit, starting_after: request.starting_after, payment_id: request.payment_id, malformed: request.malformed_request,
      }));
      return { data: page.data.map(toRefundMessage), has_more: page.has_more };
    }),
  };
}
