// GET /dashboard/export/payments.csv: the dashboard's CSV download, a same-origin GET with the
// session cookie. Forwarded to the core's HTTP port with the headers of the dashboard contract (the
// facade's credential, the session token from the cookie, the client's address, the User-Agent) and
// streamed back as the core writes it: the body is never buffered, the core's pace is the
// browser's (backpressure both ways), and the core's deadline covers only its first answer, so an
// export of any size may take as long as it takes.
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import type Router from "@koa/router";
import type { FacadeConfig } from "../config.ts";
import { PublicError } from "../public-error.ts";

export const PAYMENTS_EXPORT_PATH = "/dashboard/export/payments.csv";

/** The core's headers passed on; X-Paytami-Session-* never are (they become the cookie). */
const PASSED_BACK = ["content-type", "content-disposition", "x-content-type-options"];

/** The session cookie's name (DESIGN §5): `__Host-` prefixed when PUBLIC_BASE_URL is https. */
const cookieName = (config: FacadeConfig) => (config.publicBaseUrl.startsWith("https://") ? "__Host-paytami_session" : "paytami_session");

function sessionToken(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

export function dashboardExportRoutes(router: Router, config: FacadeConfig): void {
  router.get(PAYMENTS_EXPORT_PATH, async (ctx) => {
    const headers: Record<string, string> = { authorization: `Bearer ${config.internalToken}`, "x-paytami-client-ip": ctx.ip };
    const name = cookieName(config);
    const token = sessionToken(ctx.get("Cookie"), name);
    if (token) headers["x-paytami-session"] = token;
    const userAgent = ctx.get("User-Agent");
    if (userAgent) headers["user-agent"] = userAgent;

    const abort = new AbortController();
    const deadline = setTimeout(() => abort.abort(), config.coreTimeoutMs);
    let answer: Response;
    try {
      answer = await fetch(`${config.coreHttpUrl}${PAYMENTS_EXPORT_PATH}${ctx.querystring ? `?${ctx.querystring}` : ""}`, {
        headers,
        redirect: "manual",
        signal: abort.signal,
      });
    } catch {
      throw new PublicError("processor_unavailable", "The service is temporarily unavailable; retry later.");
    } finally {
      clearTimeout(deadline);
    }
    if (answer.headers.get("x-paytami-session-clear") === "1") {
      ctx.append("Set-Cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${name.startsWith("__Host-") ? "; Secure" : ""}`);
    }
    ctx.status = answer.status;
    for (const header of PASSED_BACK) {
      const value = answer.headers.get(header);
      if (value !== null) ctx.set(header, value);
    }
    ctx.set("Cache-Control", "no-store");
    // A browser that goes away cancels the core's stream, which stops its reads.
    ctx.body = answer.body ? Readable.fromWeb(answer.body as ReadableStream) : "";
  });
}
