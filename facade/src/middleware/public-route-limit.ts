import type { Context, Next } from "koa";
import { h } from "preact";
import { clientKey } from "../../../proto/client-address.ts";
import type { FacadeConfig } from "../config.ts";
import { pickLocale, TEXT } from "../pages/locale.ts";
import { MessagePage } from "../pages/message-page.tsx";
import { renderDocument } from "../pages/render-document.ts";
import { PublicError } from "../public-error.ts";
import { setPageHeaders } from "../routes/page-headers.ts";

type Limit = NonNullable<FacadeConfig["publicRouteLimit"]>;

// Clients remembered per window. A flood from more addresses than this (fresh IPv6 /64s) shares one
// bucket past it: the facade's memory stays bounded, and the clients already counted keep their own.
const MAX_CLIENTS = 50_000;
const OVERFLOW = "overflow";

/**
 * Fixed-window request counts per client, in this facade's memory (epoch-aligned windows, like the
 * core's limits). The whole map is dropped when a window ends, so it only ever holds one window.
 */
export class WindowCounter {
  readonly #limit: Limit;
  #windowStart = Number.NaN;
  #counts = new Map<string, number>();

  constructor(limit: Limit) {
    this.#limit = limit;
  }

  /** Counts one request of `client`: the seconds until its window ends when it is over the limit, else undefined. */
  hit(client: string, nowMs: number): number | undefined {
    const { perIp, windowMs } = this.#limit;
    const start = Math.floor(nowMs / windowMs) * windowMs;
    if (start !== this.#windowStart) {
      this.#windowStart = start;
      this.#counts = new Map();
    }
    const key = this.#counts.has(client) || this.#counts.size < MAX_CLIENTS ? client : OVERFLOW;
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    return count > perIp ? Math.max(1, Math.ceil((start + windowMs - nowMs) / 1000)) : undefined;
  }
}

/**
 * PUBLIC_ROUTE_LIMIT on the public routes addressed by a payment or link id (status polls, QR codes,
 * hosted pages, public lookups): anyone may call them, each costs a core call (a QR code also its
 * drawing), and the id is the only credential, so one client must not poll or guess at will. Kept
 * in memory on each facade, not in PostgreSQL: a counter write per request would double the cost of
 * what it protects, and the limit only has to stop floods (with N facades a client gets at most N
 * times it). Money and card testing are limited in the core, across instances (LINK_RATE_LIMIT,
 * CARD_SUBMIT_LIMIT). People get a page, JSON callers the catalog's rate_limited; both Retry-After.
 */
export function publicRouteLimit(limit: Limit, now: () => number = Date.now) {
  const counter = new WindowCounter(limit);
  return async (ctx: Context, next: Next) => {
    const retryAfter = counter.hit(clientKey(ctx.ip), now());
    if (retryAfter === undefined) {
      await next();
      return;
    }
    if (ctx.accepts("json", "html") !== "html") {
      throw new PublicError("rate_limited", "Too many requests from this address; retry later.", undefined, retryAfter);
    }
    const locale = pickLocale(ctx.get("Accept-Language"));
    const t = TEXT[locale];
    setPageHeaders(ctx, locale);
    ctx.set("Retry-After", String(retryAfter));
    ctx.status = 429;
    ctx.type = "text/html; charset=utf-8";
    ctx.body = renderDocument(h(MessagePage, { locale, title: t.tooManyRequestsTitle, message: t.tooManyRequests }));
  };
}
