import type { Router } from "@koa/router";
import type { CoreClient } from "../../../proto/core-client.ts";
import { modeCodec } from "../../../proto/enums.ts";
import { route } from "../openapi/operation.ts";
import { getBalance } from "../openapi/operations/balance.ts";
import { callMeta } from "./call-meta.ts";

/**
 * GET /v1/balance: the API key's merchant's balances in the key's mode, one per currency, each the
 * sum of its ledger lines (signed: a debt from refunds beyond what was pending shows as negative).
 */
export function balanceRoutes(router: Router, core: CoreClient): void {
  route(router, getBalance, async (ctx) => {
    const answer = await core.ledger.getBalances({}, callMeta(ctx));
    ctx.body = {
      mode: modeCodec.requestText(answer.mode),
      balances: answer.balances.map((b) => ({ currency: b.currency, pending: b.pending, available: b.available, in_transit: b.in_transit })),
    };
  });
}
