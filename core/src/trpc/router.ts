import type { IncomingMessage, ServerResponse } from "node:http";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { CoreDeps } from "../domain/deps.ts";
import { DomainError } from "../domain/errors.ts";
import { facadeCheck, operatorCheck } from "../domain/service-credentials.ts";
import { bearerToken } from "../http/bearer-token.ts";
import { deliveriesRouter } from "./deliveries.ts";
import { dashboardRouter } from "./dashboard/index.ts";
import { router, type SessionHeaders, type TrpcContext } from "./init.ts";
import { keysRouter, merchantsRouter } from "./merchants.ts";
import { paymentsRouter } from "./payments.ts";
import { webhooksRouter } from "./webhooks.ts";
import { linksRouter } from "./links.ts";
import { bankAccountsRouter, chargebacksRouter, payoutsRouter } from "./payouts.ts";
import { refundsRouter } from "./refunds.ts";
import { settingsRouter } from "./settings.ts";
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
  settings: settingsRouter,
  dashboard: dashboardRouter,
});

export type AppRouter = typeof appRouter;

export const TRPC_PATH = "/trpc";

/** The forwarded browser's headers (dashboard contract), read by dashboard procedures once the facade's credential is proven. */
export const SESSION_HEADER = "x-paytami-session";
export const CLIENT_IP_HEADER = "x-paytami-client-ip";
export const SESSION_SET_HEADER = "X-Paytami-Session-Set";
export const SESSION_CLEAR_HEADER = "X-Paytami-Session-Clear";

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value) || undefined;

/** The response's session headers, and Retry-After when a call was rate-limited. */
function responseHeaders(ctx: TrpcContext | undefined, retryAfter: number | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  const session: SessionHeaders | undefined = ctx?.sessionHeaders;
  if (session?.set) headers[SESSION_SET_HEADER] = `${session.set.token}; max-age=${session.set.maxAgeSeconds}`;
  else if (session?.clear) headers[SESSION_CLEAR_HEADER] = "1";
  if (retryAfter !== undefined) headers["Retry-After"] = String(retryAfter);
  return headers;
}

/** The HTTP handler for `${TRPC_PATH}/…` on the core's HTTP port. */
export function trpcHandler(deps: CoreDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const resolveOperator = operatorCheck(deps.config.serviceTokens.operator);
  const resolveFacade = facadeCheck(deps.config.serviceTokens.facade);
  return createHTTPHandler({
    router: appRouter,
    basePath: `${TRPC_PATH}/`,
    // Counted as the body streams in: a larger one is cut off with PAYLOAD_TOO_LARGE (413), never buffered whole.
    maxBodySize: deps.config.trpcMaxBodyBytes,
    createContext: ({ req }): TrpcContext => ({
      deps,
      bearer: bearerToken(req.headers.authorization),
      resolveOperator,
      resolveFacade,
      browser: {
        sessionToken: single(req.headers[SESSION_HEADER]),
        clientIp: single(req.headers[CLIENT_IP_HEADER]),
        userAgent: single(req.headers["user-agent"]),
      },
      sessionHeaders: {},
    }),
    responseMeta: ({ ctx, errors }) => {
      const limited = errors.map((e) => (e.cause instanceof DomainError ? e.cause.retryAfterSeconds : undefined)).find((s) => s !== undefined);
      return { headers: responseHeaders(ctx, limited) };
    },
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") deps.log.error({ err: error.cause ?? error, path }, "tRPC call failed");
    },
  });
}
