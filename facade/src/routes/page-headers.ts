import type Router from "@koa/router";
import type { Context } from "koa";
import type { Locale } from "../pages/locale.ts";

export interface PagePolicy {
  /** Where the page's forms may post, and be redirected to after posting (browsers apply form-action to that redirect), besides 'self'. */
  formTargets?: readonly string[];
  /** Who may frame the page (`*` or origins); nobody when absent, which also sends X-Frame-Options. */
  frameAncestors?: string;
}

/**
 * Every hosted page's headers (payment page, embed, link page): never cached, scripts, styles and
 * images only from the facade's own hashed assets (nothing inline, nothing from elsewhere), nothing leaked
 * through Referer, and framed by nobody unless the page says who.
 */
export function setPageHeaders(ctx: Context, locale: Locale, policy: PagePolicy = {}): void {
  ctx.set("Cache-Control", "no-store");
  ctx.set("Content-Language", locale);
  ctx.set("Referrer-Policy", "no-referrer");
  ctx.set(
    "Content-Security-Policy",
    [
      "default-src 'none'",
      "style-src 'self'",
      "script-src 'self'",
      // The merchant's logo (/assets/logos/<sha256>.<ext>).
      "img-src 'self'",
      "connect-src 'self'",
      `form-action ${["'self'", ...(policy.formTargets ?? [])].join(" ")}`,
      "base-uri 'none'",
      `frame-ancestors ${policy.frameAncestors ?? "'none'"}`,
    ].join("; "),
  );
  if (policy.frameAncestors === undefined) ctx.set("X-Frame-Options", "DENY");
}

/** A content-hashed asset (its path changes with its content), so it may be cached for good. */
export function serveAsset(router: Router, path: string, type: string, body: string): void {
  router.get(path, (ctx) => {
    ctx.set("Cache-Control", "public, max-age=31536000, immutable");
    ctx.type = type;
    ctx.body = body;
  });
}
