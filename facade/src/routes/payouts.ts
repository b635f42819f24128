import type { Router } from "@koa/router";
import type { CoreClient } from "../../../proto/core-client.ts";
import { CoreError } from "../../../proto/core-error.ts";
import { chargebackJson, payoutJson } from "../../../proto/payout-json.ts";
import { route } from "../openapi/operation.ts";
import { getChargeback, getPayout, listChargebacks, listPayouts } from "../openapi/operations/payouts.ts";
import { listPageRequest } from "../payout-request-shapes.ts";
import { PublicError } from "../public-error.ts";
import { callMeta } from "./call-meta.ts";
import { readOr } from "./idempotent-post.ts";

/**
 * A get by id whose only validation_error is "no such object of yours" (the catalog has no
 * unknown_payout or unknown_chargeback): answered 404, like an unknown event or route (README).
 */
async function notFoundAs404<T>(get: () => Promise<T>): Promise<T> {
  try {
    return await get();
  } catch (error) {
    if (error instanceof CoreError && error.fromCore && error.code === "validation_error") throw new PublicError("validation_error", error.message, 404);
    throw error;
  }
}

/** GET /v1/payouts, /v1/payouts/{id}, /v1/chargebacks, /v1/chargebacks/{id}: the API key's merchant and mode only. */
export function payoutRoutes(router: Router, core: CoreClient): void {
  route(router, listPayouts, async (ctx) => {
    const request = await readOr(
      () => listPageRequest(ctx.query),
      (malformed_request) => ({ malformed_request }),
    );
    const page = await core.payouts.listPayouts(request, callMeta(ctx));
    ctx.body = { data: page.data.map(payoutJson), has_more: page.has_more };
  });

  route(router, getPayout, async (ctx) => {
    const { payout } = await notFoundAs404(() => core.payouts.getPayout({ id: ctx.params.id! }, callMeta(ctx)));
    ctx.body = payoutJson(payout!);
  });

  route(router, listChargebacks, async (ctx) => {
    const request = await readOr(
      () => listPageRequest(ctx.query),
      (malformed_request) => ({ malformed_request }),
    );
    const page = await core.payouts.listChargebacks(request, callMeta(ctx));
    ctx.body = { data: page.data.map(chargebackJson), has_more: page.has_more };
  });

  route(router, getChargeback, async (ctx) => {
    const { chargeback } = await notFoundAs404(() => core.payouts.getChargeback({ id: ctx.params.id! }, callMeta(ctx)));
    ctx.body = chargebackJson(chargeback!);
  });
}
