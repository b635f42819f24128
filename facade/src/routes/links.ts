import type { Router } from "@koa/router";
import type { CoreClient } from "../../../proto/core-client.ts";
import { linkJson, publicLinkJson } from "../../../proto/link-json.ts";
import { paymentJson } from "../../../proto/payment-json.ts";
import { createLinkRequest, listLinksRequest, payLinkRequest } from "../link-request-shapes.ts";
import { callMeta } from "./call-meta.ts";
import { idempotentPost, keyAndReason, readOr } from "./idempotent-post.ts";
import { route } from "../openapi/operation.ts";
import { createPaymentLink, getPaymentLink, listPaymentLinks, payPaymentLink } from "../openapi/operations/links.ts";

export function linkRoutes(router: Router, core: CoreClient, options: { bodyLimitBytes: number }): void {
  // Merchant API (authenticated): create and list.
  idempotentPost(router, createPaymentLink, options.bodyLimitBytes, {
    read: createLinkRequest,
    malformed: keyAndReason,
    create: (request, meta) => core.links.createLink(request, meta),
    json: (answer) => linkJson(answer.link!),
  });

  route(router, listPaymentLinks, async (ctx) => {
    const request = await readOr(
      () => listLinksRequest(ctx.query),
      (malformed_request) => ({ malformed_request }),
    );
    const page = await core.links.listLinks(request, callMeta(ctx));
    ctx.body = { data: page.data.map(linkJson), has_more: page.has_more };
  });

  // Public (the customer's browser): read and pay. The link id is the credential.
  route(router, getPaymentLink, async (ctx) => {
    const link = await core.links.getPublicLink({ link_id: ctx.params.id! }, callMeta(ctx));
    ctx.set("Cache-Control", "no-store");
    ctx.body = publicLinkJson(link);
  });

  idempotentPost(router, payPaymentLink, options.bodyLimitBytes, {
    read: (body, idempotencyKey, ctx) => payLinkRequest(body, ctx.params.id!, idempotencyKey, ctx.ip),
    malformed: (malformed_request, idempotency_key, ctx) => ({ link_id: ctx.params.id!, idempotency_key, client_ip: ctx.ip, malformed_request }),
    create: (request, meta) => core.links.payLink(request, meta),
    json: (answer) => paymentJson(answer.payment!),
    headers: { "Cache-Control": "no-store" },
  });
}
