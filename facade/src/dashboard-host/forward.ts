import { Readable } from "node:stream";
import type { Context } from "koa";
import type { DashboardHostConfig } from "../config.ts";
import { readBodyBytes } from "../middleware/body-bytes.ts";
import { PublicError } from "../public-error.ts";
import { sessionSetCookie, sessionTokenOf } from "./session-cookie.ts";
import { sendTrpcError } from "./trpc-error.ts";

export interface ForwardOptions {
  config: DashboardHostConfig;
  /** CORE_HTTP_URL. */
  coreHttpUrl: string;
  /** PAYTAMI_FACADE_TOKEN: the facade's own credential, which the core requires on every dashboard procedure. */
  facadeToken: string;
  timeoutMs: number;
}

/** The core's answer headers passed on to the browser; the session headers never are (they become the cookie). */
const PASSED_BACK = ["content-type", "content-disposition", "retry-after", "vary"];

/**
 * The headers of the dashboard contract on every request the facade makes to the core for the
 * browser (tRPC and the CSV export alike): the facade's credential, the session token from the
 * cookie, the client's address as client-ip.ts resolved it, and the browser's User-Agent and Accept.
 */
export function coreRequestHeaders(ctx: Pick<Context, "get" | "ip">, config: DashboardHostConfig, facadeToken: string): Record<string, string> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${facadeToken}`,
    "x-paytami-client-ip": ctx.ip,
  };
  const accept = ctx.get("Accept");
  if (accept) headers.accept = accept;
  const token = sessionTokenOf(ctx.get("Cookie"), config);
  if (token) headers["x-paytami-session"] = token;
  const userAgent = ctx.get("User-Agent");
  if (userAgent) headers["user-agent"] = userAgent;
  return headers;
}

/**
 * Forwards a dashboard request to `{core_http}{corePath}?{same query}` (the contract of issue 16):
 * the facade's credential, the session token from the cookie, the client's address as
 * client-ip.ts resolved it and the browser's User-Agent; the answer streams back, its
 * X-Paytami-Session-Set/-Clear turned into the session cookie. A core that does not answer is a
 * tRPC-shaped 503, never a 500. The token is never logged: it travels only in headers.
 */
export async function forwardToCore(ctx: Context, corePath: string, { config, coreHttpUrl, facadeToken, timeoutMs }: ForwardOptions): Promise<void> {
  let body: Buffer | undefined;
  if (ctx.method === "POST") {
    try {
      body = await readBodyBytes(ctx, config.bodyLimitBytes);
    } catch (error) {
      if (!(error instanceof PublicError)) throw error;
      const tooLarge = /at most/.test(error.message);
      return sendTrpcError(ctx, tooLarge ? 413 : 400, tooLarge ? "PAYLOAD_TOO_LARGE" : "BAD_REQUEST", "validation_error", error.message);
    }
  }
  const headers = coreRequestHeaders(ctx, config, facadeToken);
  if (body) headers["content-type"] = ctx.get("Content-Type");
  const query = ctx.querystring ? `?${ctx.querystring}` : "";

  let answer: Response;
  try {
    answer = await fetch(`${coreHttpUrl}${corePath}${query}`, {
      method: ctx.method === "HEAD" ? "GET" : ctx.method,
      headers,
      body: body ? new Uint8Array(body) : undefined,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    return sendTrpcError(ctx, 503, "SERVICE_UNAVAILABLE", "processor_unavailable", "The dashboard service is temporarily unavailable; retry later.");
  }

  const cookie = sessionSetCookie(answer.headers.get("x-paytami-session-set"), answer.headers.get("x-paytami-session-clear"), config);
  if (cookie) ctx.append("Set-Cookie", cookie);
  if (ctx.method !== "POST" && answer.status === 405) {
    // tRPC refused a mutation sent as GET before running it: to the browser that is the CSRF rule's 403.
    await answer.body?.cancel();
    return sendTrpcError(ctx, 403, "FORBIDDEN", "unauthorized", "Refused: a mutation must be a POST (DESIGN §5).");
  }
  ctx.status = answer.status;
  for (const name of PASSED_BACK) {
    const value = answer.headers.get(name);
    if (value !== null) ctx.set(name, value);
  }
  ctx.set("Cache-Control", "no-store");
  ctx.body = answer.body ? Readable.fromWeb(answer.body as import("node:stream/web").ReadableStream) : "";
}
