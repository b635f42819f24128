import type { Router, RouterContext } from "@koa/router";
import type { Context } from "koa";
import type { CoreClient } from "../../../proto/core-client.ts";
import { linkJson, publicLinkJson } from "../../../proto/link-json.ts";
import { paymentJson } from "../../../proto/payment-json.ts";
import { createLinkRequest, listLinksRequest, payLinkRequest } from "../link-request-shapes.ts";
import { readJsonBody } from "../middleware/json-body.ts";
import { readOr } from "./payments.ts";
import { callMeta } from "./call-meta.ts";

export function linkRoutes(router: Router, core: CoreClient, options: { bodyLimitBytes: number }): void {
  // Merchant API (authenticated): create and list.
  router.post("/v1/payment_links", async (ctx: Context) => {
    const idempotencyKey = ctx.get("Idempotency-Key");
    const request = await readOr(
      async () => createLinkRequest(await readJsonBody(ctx, options.bodyLimitBytes), idempotencyKey),
      (malformed_request) => ({ idempotency_key: idempotencyKey, malformed_request }),
    );
    const result = await core.links.createLink(request, callMeta(ctx));
    ctx.status = 201;
    if (result.replayed) ctx.set("Idempotent-Replayed", "true");
    ctx.body = linkJson(result.link!);
  });

  router.get("/v1/payment_links", async (ctx: Context) => {
    const request = await readOr(() => listLinksRequest(ctx.query), (malformed_request) => ({ malformed_request }));
    const page = await core.links.listLinks(request, callMeta(ctx));
    ctx.body = { data: page.data.map(linkJson), has_more: page.has_more };
  });

  // Public (the customer's browser): read and pay. The link id is the credential.
  router.get("/v1/payment_links/:id", async (ctx: RouterContext) => {
    const link = await core.links.getPublicLink({ link_id: ctx.params.id! }, callMeta(ctx));
    ctx.set("Cache-Control", "no-store");
    ctx.body = publicLinkJson(link);
  });

  router.post("/v1/payment_links/:id/pay", async (ctx: RouterContext) => {
    const linkId = ctx.params.id!;
    const idempotencyKey = ctx.get("Idempotency-Key");
    const ip = ctx.ip;
    const request = await readOr(
      async () => payLinkRequest(await readJsonBody(ctx, options.bodyLimitBytes), linkId, idempotencyKey, ip),
      (malformed_request) => ({ link_id: linkId, idempotency_key: idempotencyKey, client_ip: ip, malformed_request }),
    );
    const result = await core.links.payLink(request, callMeta(ctx));
    ctx.status = 201;
    ctx.set("Cache-Control", "no-store");
    if (result.replayed) ctx.set("Idempotent-Replayed", "true");
    ctx.body = paymentJson(result.payment!);
  });
}
