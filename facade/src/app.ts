import Router from "@koa/router";
import Koa from "koa";
import type { Logger } from "../../proto/runtime/logger.ts";
import { resolveClientIp } from "./client-ip.ts";
import type { FacadeConfig } from "./config.ts";
import type { CoreClient } from "../../proto/core-client.ts";
import { errorBody } from "./middleware/error-body.ts";
import { publicRouteLimit } from "./middleware/public-route-limit.ts";
import { requestContext } from "./middleware/request-context.ts";
import type { LogBuffer } from "./request-logs/log-buffer.ts";
import { recordRequests, type CapturedRequest } from "./request-logs/recorder.ts";
import { strictTransportSecurity } from "./middleware/strict-transport-security.ts";
import { traceRequest } from "./middleware/tracing.ts";
import { tracingOn } from "../../proto/runtime/spans.ts";
import { PublicError } from "./public-error.ts";
import { balanceRoutes } from "./routes/balance.ts";
import { checkoutRoutes } from "./routes/checkout.ts";
import { dashboardExportRoutes } from "./routes/dashboard-export.ts";
import { dashboardHost } from "./routes/dashboard.ts";
import { eventRoutes } from "./routes/events.ts";
import { webhookEndpointRoutes } from "./routes/webhook-endpoints.ts";
import { brandAssetRoutes } from "./routes/brand-assets.ts";
import { linkPageRoutes } from "./routes/link-pages.ts";
import { linkRoutes } from "./routes/links.ts";
import { openApiRoutes } from "./routes/openapi.ts";
import { pageRoutes } from "./routes/pages.ts";
import { paymentRoutes } from "./routes/payments.ts";
import { payoutRoutes } from "./routes/payouts.ts";
import { refundRoutes } from "./routes/refunds.ts";

export interface FacadeDeps {
  config: FacadeConfig;
  core: CoreClient;
  log: Logger;
  healthy: () => Promise<boolean>;
  /** Where recorded requests go; absent: request logs are off. */
  requestLogs?: LogBuffer<CapturedRequest> | undefined;
}

/** The public routes addressed by a payment or link id (and everything under them): PUBLIC_ROUTE_LIMIT applies. */
export const PUBLIC_ID_ROUTES = ["/pay/:id", "/embed/:id", "/l/:id", "/v1/payment_links/:id", "/v1/checkout/:id", "/v1/payments/:id/checkout_session"];

export function createApp({ config, core, log, healthy, requestLogs }: FacadeDeps): Koa {
  // Koa's proxy mode stays off: it believes any peer's X-Forwarded-For. ctx.ip is set by resolveClientIp.
  const app = new Koa({ proxy: false });
  const router = new Router();
  // Registered before the routes, so it runs first on every route under these paths.
  if (config.publicRouteLimit) router.use(PUBLIC_ID_ROUTES, publicRouteLimit(config.publicRouteLimit));

  router.get("/healthz", async (ctx) => {
    const ok = await healthy();
    ctx.set("Cache-Control", "no-store");
    ctx.status = ok ? 200 : 503;
    ctx.body = ok ? { status: "ok" } : { status: "unavailable" };
  });
  paymentRoutes(router, core, config.bodyLimitBytes);
  checkoutRoutes(router, core);
  pageRoutes(router, core);
  brandAssetRoutes(router, core);
  eventRoutes(router, core);
  webhookEndpointRoutes(router, core, { bodyLimitBytes: config.bodyLimitBytes });
  linkRoutes(router, core, { bodyLimitBytes: config.bodyLimitBytes });
  linkPageRoutes(router, core, config);
  refundRoutes(router, core, config.bodyLimitBytes);
  dashboardExportRoutes(router, config);
  balanceRoutes(router, core);
  payoutRoutes(router, core);
  openApiRoutes(router, config.publicBaseUrl);

  // First, so the span covers every other middleware; absent (not even a pass-through) with tracing off.
  if (tracingOn()) app.use(traceRequest);
  if (config.strictTransportSecurity) app.use(strictTransportSecurity(config.strictTransportSecurity));
  app.use(resolveClientIp(config.trustProxy));
  app.use(requestContext(log));
  // Outside errorBody, so it sees the final status and the error's catalog code; absent with logs off.
  if (requestLogs) app.use(recordRequests(requestLogs));
  app.use(errorBody);
  app.use(dashboardHost(config, log));
  app.use(router.routes());
  // No route matched: the nearest catalog code is validation_error (see README), with 404 or 405.
  app.use(async (ctx) => {
    const matched = router.match(ctx.path, ctx.method);
    if (matched.path.length > 0) {
      const allowed = [...new Set(matched.path.flatMap((layer) => layer.methods))].filter((m) => m !== "HEAD");
      ctx.set("Allow", allowed.join(", "));
      throw new PublicError("validation_error", `Method ${ctx.method} is not allowed here; use ${allowed.join(" or ")}.`, 405);
    }
    throw new PublicError("validation_error", `No route ${ctx.method} ${ctx.path}.`, 404);
  });
  return app;
}
