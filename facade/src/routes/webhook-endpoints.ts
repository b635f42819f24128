import type { Router, RouterContext } from "@koa/router";
import type { CoreClient } from "../../../proto/core-client.ts";
import { CoreError } from "../../../proto/core-error.ts";
import type { CreateOwnEndpointRequest, CreateOwnEndpointResponse, WebhookEndpoint } from "../../../proto/gen/paytami/v1/webhook.ts";
import { readJsonBody } from "../middleware/json-body.ts";
import { route } from "../openapi/operation.ts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookEndpointSecret,
  sendWebhookTestEvent,
  updateWebhookEndpoint,
} from "../openapi/operations/webhook-endpoints.ts";
import { PublicError } from "../public-error.ts";
import { createEndpointRequest, endpointJson, listEndpointsRequest, testEventRequest, updateEndpointRequest } from "../webhook-endpoint-shapes.ts";
import { callMeta } from "./call-meta.ts";
import { idempotentPost, keyAndReason, readOr } from "./idempotent-post.ts";

/** The core's "No such webhook endpoint" (validation_error, no catalog code of its own) answers 404, as an unknown payout does. */
async function notFoundAs404<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof CoreError && error.fromCore && error.code === "validation_error" && error.message.startsWith("No such webhook endpoint")) {
      throw new PublicError("validation_error", error.message, 404);
    }
    throw error;
  }
}

const withSecret = (answer: { endpoint?: WebhookEndpoint | undefined; secret: string }) => ({ ...endpointJson(answer.endpoint!), secret: answer.secret });

/** /v1/webhook_endpoints: the API key's merchant and mode only. */
export function webhookEndpointRoutes(router: Router, core: CoreClient, options: { bodyLimitBytes: number }): void {
  idempotentPost<CreateOwnEndpointRequest, CreateOwnEndpointResponse>(router, createWebhookEndpoint, options.bodyLimitBytes, {
    read: (body, idempotencyKey) => createEndpointRequest(body, idempotencyKey),
    malformed: (malformed_request, idempotency_key) => ({ ...keyAndReason(malformed_request, idempotency_key), enabled_events: [] }),
    create: (request, meta) => core.webhooks.createOwnEndpoint(request, meta),
    json: withSecret,
  });

  route(router, listWebhookEndpoints, async (ctx) => {
    const request = await readOr(
      () => listEndpointsRequest(ctx.query),
      (malformed_request) => ({ malformed_request }),
    );
    const page = await core.webhooks.listOwnEndpoints(request, callMeta(ctx));
    ctx.body = { data: page.data.map(endpointJson), has_more: page.has_more };
  });

  route(router, getWebhookEndpoint, async (ctx) => {
    const { endpoint } = await notFoundAs404(() => core.webhooks.getOwnEndpoint({ id: ctx.params.id! }, callMeta(ctx)));
    ctx.body = endpointJson(endpoint!);
  });

  route(router, updateWebhookEndpoint, async (ctx: RouterContext) => {
    const id = ctx.params.id!;
    const request = await readOr(
      async () => updateEndpointRequest(id, await readJsonBody(ctx, options.bodyLimitBytes)),
      (malformed_request) => ({ id, malformed_request }),
    );
    const { endpoint } = await notFoundAs404(() => core.webhooks.updateOwnEndpoint(request, callMeta(ctx)));
    ctx.body = endpointJson(endpoint!);
  });

  route(router, deleteWebhookEndpoint, async (ctx) => {
    const deleted = await notFoundAs404(() => core.webhooks.deleteOwnEndpoint({ id: ctx.params.id! }, callMeta(ctx)));
    ctx.body = { id: deleted.id, deleted: true };
  });

  route(router, rotateWebhookEndpointSecret, async (ctx) => {
    ctx.body = withSecret(await notFoundAs404(() => core.webhooks.rotateOwnEndpointSecret({ id: ctx.params.id! }, callMeta(ctx))));
  });

  route(router, sendWebhookTestEvent, async (ctx: RouterContext) => {
    const id = ctx.params.id!;
    const request = await readOr(
      async () => testEventRequest(id, await readJsonBody(ctx, options.bodyLimitBytes)),
      // The core refuses the empty type after the API key and the endpoint: that is the check order.
      () => ({ endpoint_id: id, type: "" }),
    );
    ctx.body = await notFoundAs404(() => core.webhooks.sendTestEvent(request, callMeta(ctx)));
  });
}
