import type { Context } from "koa";

/**
 * DESIGN §5's CSRF rule for /dashboard/trpc, checked before anything is forwarded. A mutation is a
 * POST, accepted only with `Content-Type: application/json` (parameters allowed) and an `Origin`
 * equal to PUBLIC_BASE_URL's. A GET is a query: browsers send no Origin on a same-origin GET, so it
 * passes unless it shows itself cross-site (a foreign Origin, or Sec-Fetch-Site saying so); a GET
 * naming a mutation is refused by tRPC itself before anything runs, and the host answers that 403
 * too (routes/dashboard.ts). Any other method is refused.
 * Returns why the request is refused, or undefined when it may go on.
 */
export function csrfRefusal(ctx: Pick<Context, "method" | "get">, publicOrigin: string): string | undefined {
  const origin = ctx.get("Origin");
  const site = ctx.get("Sec-Fetch-Site").toLowerCase();
  if (ctx.method === "GET" || ctx.method === "HEAD") {
    if (origin !== "" && origin !== publicOrigin) return "a request from another origin";
    if (site !== "" && site !== "same-origin" && site !== "none") return "a request from another site";
    return undefined;
  }
  if (ctx.method !== "POST") return `method ${ctx.method}`;
  const type = ctx.get("Content-Type").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") return "a body that is not application/json";
  if (origin !== publicOrigin) return origin === "" ? "a mutation without Origin" : "a request from another origin";
  return undefined;
}
