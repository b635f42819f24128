import { currencyCodec, refundReasonCodec, refundStatusCodec } from "../../../proto/enums.ts";
import {
  RefundServiceService,
  type CreateRefundRequest,
  type ListRefundsRequest,
  type Refund,
  type RefundServiceServer,
} from "../../../proto/gen/paytami/v1/refund.ts";
import type { CoreDeps } from "../domain/deps.ts";
import type { IdempotentResult } from "../domain/idempotency.ts";
import type { Page } from "../domain/keyset-page.ts";
import { refunds } from "../operations/refunds.ts";
import type { RefundView } from "../domain/refunds.ts";
import { actingForOrApiKey, managing } from "./caller.ts";
import { call, serviceOf } from "./method-table.ts";
import { idempotentCommand } from "./requests.ts";

/** The one mapping from the domain's Refund to its gRPC message (the facade and CLI map it on to JSON). */
export function toRefundMessage(view: RefundView): Refund {
  return {
    ...view,
    currency: currencyCodec.fromWire(view.currency),
    reason: refundReasonCodec.fromWire(view.reason),
    status: refundStatusCodec.fromWire(view.status),
  };
}

const refundAnswer = ({ value, replayed }: IdempotentResult<RefundView>) => ({ refund: toRefundMessage(value), replayed });
const listQuery = (request: ListRefundsRequest) => ({
  limit: request.limit,
  starting_after: request.starting_after,
  payment_id: request.payment_id,
  malformed: request.malformed_request,
});
const refundPage = (page: Page<RefundView>) => ({ data: page.data.map(toRefundMessage), has_more: page.has_more });

export function refundService(deps: CoreDeps): RefundServiceServer {
  return serviceOf(deps, RefundServiceService, {
    createRefund: call(
      refunds.create,
      actingForOrApiKey((request: CreateRefundRequest) => request.acting_for),
      idempotentCommand,
      refundAnswer,
    ),
    getRefund: call(
      refunds.get,
      managing((request) => request.acting_for),
      (request) => request.id,
      (view) => ({ refund: toRefundMessage(view) }),
    ),
    listRefunds: call(
      refunds.list,
      actingForOrApiKey((request) => request.acting_for),
      listQuery,
      refundPage,
    ),
  });
}
