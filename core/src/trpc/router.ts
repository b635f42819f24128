import type { IncomingMessage, ServerResponse } from "node:http";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { CoreDeps } from "../domain/deps.ts";
import { operatorCheck } from "../domain/service-credentials.ts";
import { bearerToken } from "../http/bearer-token.ts";
import { deliveriesRouter } from "./deliveries.ts";
import { router } from "./init.ts";
import { keysRouter, merchantsRouter } from "./merchants.ts";
import { paymentsRouter } from "./payments.ts";
import { webhooksRouter } from "./webhooks.ts";
import { linksRouter } from "./links.ts";
import { bankAccountsRouter, chargebacksRouter, payoutsRouter } from "./payouts.ts";
import { refundsRouter } from "./refunds.ts";
import { balancesRouter, ledgerRouter } from "./ledger.ts";
import { viewsRouter } from "./views.ts";

/** The core's tRPC API for the dashboard and operators; each capability adds its router here. */
export const appRouter = router({
  merchants: merchantsRouter,
  keys: keysRouter,
  payments: paymentsRouter,
  webhooks: webhooksRouter,
  deliveries: deliveriesRouter,
  links: linksRouter,
  payouts: payoutsRouter,
  bankAccounts: bankAccountsRouter,
  chargebacks: chargebacksRouter,
  refunds: refundsRouter,
  balances: balancesRouter,
  ledger: ledgerRouter,
  views: viewsRouter,
});

export type AppRouter = typeof appRouter;

export const TRPC_PATH = "/trpc";

/** The HTTP handler for `${TRPC_PATH}/…` on the core's HTTP port. */
export function trpcHandler(deps: CoreDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const resolveOperator = operatorCheck(deps.config.serviceTokens.operator);
  return createHTTPHandler({
    router: appRouter,
    basePath: `${TRPC_PATH}/`,
    // Counted as the body streams in: a larger one is cut off with PAYLOAD_TOO_LARGE (413), never buffered whole.
    maxBodySize: deps.config.trpcMaxBodyBytes,
    createContext: ({ req }) => ({ deps, bearer: bearerToken(req.headers.authorization), resolveOperator }),
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") deps.log.error({ err: error.cause ?? error, path }, "tRPC call failed");
    },
  });
}
