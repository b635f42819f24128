import { isIP } from "node:net";
import type { Context } from "koa";

/**
 * The customer's IP, for the payment-link rate limit: the socket's peer, or, only behind a trusted
 * load balancer (TRUST_PROXY=true), the first X-Forwarded-For hop (the client as the balancer saw
 * it). Without TRUST_PROXY the header is ignored: any client could write one to dodge the limit.
 * IPv4-mapped IPv6 addresses count as their IPv4 address, so one client has one spelling.
 */
export function clientIp(ctx: Pick<Context, "get" | "req">, trustProxy: boolean): string {
  if (trustProxy) {
    const first = ctx.get("X-Forwarded-For").split(",")[0]!.trim();
    if (isIP(first)) return normalized(first);
  }
  return normalized(ctx.req.socket.remoteAddress ?? "unknown");
}

function normalized(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1]! : ip.toLowerCase();
}
