import { z } from "zod";
import type { ListChargebacksRequest, ListPayoutsRequest } from "../../proto/gen/paytami/v1/payout.ts";
import { int32, once, parse, type ProtoFields } from "./request-shapes.ts";

// The queries of GET /v1/payouts and /v1/chargebacks read into their proto requests (query text and
// unknown parameters only; the core validates every value), as request-shapes.ts does for payments.

const pageFields = {
  limit: int32.optional(),
  starting_after: once.optional(),
} satisfies ProtoFields<ListPayoutsRequest & ListChargebacksRequest, "merchant_id" | "mode" | "malformed_request">;

const pageQuery = z.strictObject(pageFields, {
  error: (issue) => (issue.code === "unrecognized_keys" ? `unknown query parameter ${issue.keys.join(", ")}` : "invalid query"),
});

/** A page of the API key's own payouts or chargebacks: no merchant_id, so the core resolves the key. */
export function listPageRequest(query: unknown): ListPayoutsRequest & ListChargebacksRequest {
  return parse(pageQuery, query);
}
