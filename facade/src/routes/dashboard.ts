import type { Context, Next } from "koa";
import type { Logger } from "../../../proto/runtime/logger.ts";
import type { FacadeConfig } from "../config.ts";
import { loadDashboardBuild, type DashboardBuild } from "../dashboard-host/assets.ts";
import { csrfRefusal } from "../dashboard-host/csrf.ts";
import { forwardToCore } from "../dashboard-host/forward.ts";
import { sendTrpcError } from "../dashboard-host/trpc-error.ts";

const BASE = "/dashboard";

/**
 * The app's pages: scripts, styles, images and fonts only from the facade's own hashed assets
 * (nothing inline, no CDN), calls only to its own origin, framed by nobody, no Referer (invite and
 * reset URLs carry one-use tokens).
 */
const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** App routes whose path carries a one-use token: the access log shows the route, never the token. */
const TOKEN_ROUTES = /^\/dashboard\/(invite|reset)\/.+/;

function sendIndex(ctx: Context, build: DashboardBuild): void {
  ctx.set("Cache-Control", "no-store");
  ctx.set("Content-Security-Policy", APP_CSP);
  ctx.set("Referrer-Policy", "no-referrer");
  ctx.set("X-Frame-Options", "DENY");
  ctx.type = "text/html; charset=utf-8";
  ctx.body = build.index;
}

function sendAsset(ctx: Context, build: DashboardBuild, name: string): void {
  const asset = build.assets.get(name);
  if (!asset) {
    ctx.status = 404;
    ctx.set("Cache-Control", "no-store");
    ctx.type = "text/plain";
    ctx.body = "Not found.";
    return;
  }
  // The name changes with the content (Vite's hash), so the browser may keep it for good.
  ctx.set("Cache-Control", "public, max-age=31536000, immutable");
  ctx.set("Vary", "Accept-Encoding");
  ctx.type = asset.type;
  if (asset.gzip && ctx.acceptsEncodings("gzip", "identity") === "gzip") {
    ctx.set("Content-Encoding", "gzip");
    ctx.body = asset.gzip;
  } else {
    ctx.body = asset.body;
  }
}

/**
 * `/dashboard`: the built app (index for every app route, hashed assets), `/dashboard/trpc/*`
 * forwarded to the core's tRPC after the CSRF rule, `/dashboard/export/*` (CSV downloads, plain
 * same-origin GETs) forwarded to the core's export routes. Mounted before the router, so nothing
 * else answers under /dashboard.
 */
export function dashboardHost(config: FacadeConfig, log: Logger) {
  const build = loadDashboardBuild(config.dashboard.dir);
  if (!build) log.warn({ dir: config.dashboard.dir }, "the dashboard app is not built (npm run build); /dashboard answers 503");
  const forward = { config: config.dashboard, facadeToken: config.internalToken, timeoutMs: config.coreTimeoutMs };

  return async (ctx: Context, next: Next): Promise<void> => {
    const path = ctx.path;
    if (path !== BASE && !path.startsWith(`${BASE}/`)) return void (await next());
    if (TOKEN_ROUTES.test(path)) (ctx.state as { logPath?: string }).logPath = path.replace(/^(\/dashboard\/\w+\/).*$/, "$1…");

    if (path.startsWith(`${BASE}/trpc/`)) {
      const refusal = csrfRefusal(ctx, config.dashboard.publicOrigin);
      if (refusal) return sendTrpcError(ctx, 403, "FORBIDDEN", "unauthorized", `Refused: ${refusal} (DESIGN §5, CSRF).`);
      return forwardToCore(ctx, path.slice(BASE.length), forward);
    }
    if (path.startsWith(`${BASE}/export/`)) {
      if (ctx.method !== "GET" || csrfRefusal(ctx, config.dashboard.publicOrigin)) {
        ctx.status = 403;
        ctx.body = { error: { code: "unauthorized", message: "Exports are same-origin GETs." } };
        return;
      }
      return forwardToCore(ctx, path, forward);
    }
    if (ctx.method !== "GET" && ctx.method !== "HEAD") return void (await next());
    if (!build) {
      ctx.status = 503;
      ctx.set("Cache-Control", "no-store");
      ctx.type = "text/plain";
      ctx.body = "The dashboard is not built on this server (npm run build builds it).";
      return;
    }
    if (path.startsWith(`${BASE}/assets/`)) return sendAsset(ctx, build, path.slice(BASE.length + 1));
    sendIndex(ctx, build);
  };
}
