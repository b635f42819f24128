import type { Router, RouterContext } from "@koa/router";
import type { CoreClient } from "../../../proto/core-client.ts";
import { brandStylesheet } from "../pages/branding.ts";
import { callMeta } from "./call-meta.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";
const LOGO_FILE = /^([0-9a-f]{64})\.(png|svg)$/;
const TYPES = { png: "image/png", svg: "image/svg+xml" } as const;

function notFound(ctx: RouterContext): void {
  ctx.status = 404;
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.type = "text/plain; charset=utf-8";
  ctx.body = "Not found.\n";
}

/**
 * Merchants' logos and brand stylesheets, named by their content: a logo by its SHA-256 (a new logo
 * is a new URL), a stylesheet by the colours it sets. An SVG is served so that even one the
 * sanitiser had let through could run nothing: its own CSP allows no script, no fetch, only inline
 * style; nosniff keeps browsers to the exact Content-Type.
 */
export function brandAssetRoutes(router: Router, core: CoreClient): void {
  router.get("/assets/logos/:file", async (ctx: RouterContext) => {
    const match = LOGO_FILE.exec(ctx.params.file ?? "");
    if (!match) return notFound(ctx);
    const type = TYPES[match[2] as keyof typeof TYPES];
    const logo = await core.checkout.getLogo({ sha256: match[1]! }, callMeta(ctx));
    if (!logo.found || logo.content_type !== type) return notFound(ctx);
    ctx.body = Buffer.from(logo.content);
    ctx.set("Content-Type", type);
    ctx.set("Cache-Control", IMMUTABLE);
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Content-Security-Policy", type === "image/svg+xml" ? "default-src 'none'; style-src 'unsafe-inline'" : "default-src 'none'");
    ctx.set("Content-Disposition", "inline");
  });

  router.get("/assets/brand/:file", (ctx: RouterContext) => {
    const css = brandStylesheet(ctx.params.file ?? "");
    if (css === undefined) return notFound(ctx);
    ctx.body = css;
    ctx.set("Content-Type", "text/css; charset=utf-8");
    ctx.set("Cache-Control", IMMUTABLE);
    ctx.set("X-Content-Type-Options", "nosniff");
  });
}
