import type { Context, Next } from "koa";

/**
 * `Strict-Transport-Security` on every response, errors and 404s included: a browser that has seen
 * it once goes straight to https for this host and its subdomains, so no later first request in
 * plain http can be intercepted and downgraded (card data and API keys travel here). Only sent when
 * the public base URL is https (config.ts): on http (local development) it would mean nothing.
 */
export function strictTransportSecurity(value: string) {
  return async (ctx: Context, next: Next) => {
    ctx.set("Strict-Transport-Security", value);
    await next();
  };
}
