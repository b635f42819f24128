import { z } from "zod";
import type { ListChargebacksRequest, ListPayoutsRequest } from "../../proto/gen/paytami/v1/payout.ts";
import { limitParam, parse, startingAfterParam, type ProtoFields } from "./request-shapes.ts";

// The queries of GET /v1/payouts and /v1/chargebacks read into their proto requests (query text and
// unknown parameters only; the core validates every value), as request-shapes.ts does for payments.

type PageRequest = ListPayoutsRequest & ListChargebacksRequest;

/** The page query of a list of `what` ("payout", "chargeback"). */
export const listPageQuery = (what: string) =>
  z.strictObject(
    {
      limit: limitParam(),
      starting_after: startingAfterParam(what),
    } satisfies ProtoFields<PageRequest, "merchant_id" | "mode" | "malformed_request">,
    {
      error: (issue) => (issue.code === "unrecognized_keys" ? `unknown query parameter ${issue.keys.join(", ")}` : "invalid query"),
    },
  );

const pageQuery = listPageQuery("item");

/** A page of the API key's own payouts or chargebacks: no merchant_id, so the core resolves the key. */
export function listPageRequest(query: unknown): PageRequest {
  return parse(pageQuery, query);
}
