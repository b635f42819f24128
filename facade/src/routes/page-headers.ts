import type { Context } from "koa";
import type { Locale } from "../pages/locale.ts";

export interface PagePolicy {
  /** Scripts from the facade's own hashed assets (never inline). */
  scripts?: boolean;
  /** Where the page's forms may post, and be redirected to after posting, besides 'self'. */
  formTargets?: string[];
}

/**
 * The hosted pages' headers (the payment page's, see pages.ts): never cached, nothing inline or from
 * elsewhere, never framed, nothing leaked through Referer.
 */
export function setPageHeaders(ctx: Context, locale: Locale, policy: PagePolicy = {}): void {
  ctx.set("Cache-Control", "no-store");
  ctx.set("Content-Language", locale);
  const formAction = ["'self'", ...(policy.formTargets ?? [])].join(" ");
  ctx.set(
    "Content-Security-Policy",
    `default-src 'none'; style-src 'self';${policy.scripts ? " script-src 'self';" : ""} form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`,
  );
  ctx.set("Referrer-Policy", "no-referrer");
  ctx.set("X-Frame-Options", "DENY");
}
