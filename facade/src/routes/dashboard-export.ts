// GET /dashboard/export/payments.csv: the dashboard's CSV download, a same-origin GET with the
// session cookie. Forwarded to the core's HTTP port with the headers of the dashboard contract (the
// facade's credential, the session token from the cookie, the client's address, the User-Agent: the
// same headers and cookie code as the tRPC forwarder, dashboard-host/forward.ts) and
// streamed back as the core writes it: the body is never buffered, the core's pace is the
// browser's (backpressure both ways), and the core's deadline covers only its first answer, so an
// export of any size may take as long as it takes.
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import type Router from "@koa/router";
import type { FacadeConfig } from "../config.ts";
import { coreRequestHeaders } from "../dashboard-host/forward.ts";
import { sessionSetCookie } from "../dashboard-host/session-cookie.ts";
import { PublicError } from "../public-error.ts";

export const PAYMENTS_EXPORT_PATH = "/dashboard/export/payments.csv";

/** The core's headers passed on; X-Paytami-Session-* never are (they become the cookie). */
const PASSED_BACK = ["content-type", "content-disposition", "x-content-type-options"];

export function dashboardExportRoutes(router: Router, config: FacadeConfig): void {
  router.get(PAYMENTS_EXPORT_PATH, async (ctx) => {
    const headers = coreRequestHeaders(ctx, config.dashboard, config.internalToken);

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
    const cookie = sessionSetCookie(answer.headers.get("x-paytami-session-set"), answer.headers.get("x-paytami-session-clear"), config.dashboard);
    if (cookie) ctx.append("Set-Cookie", cookie);
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
