import type { Router } from "@koa/router";
import type { CoreClient } from "../../../proto/core-client.ts";
import type { Event } from "../../../proto/gen/paytami/v1/webhook.ts";
import { PublicError } from "../public-error.ts";
import { listEventsRequest } from "../request-shapes.ts";
import { callMeta } from "./call-meta.ts";
import { readOr } from "./idempotent-post.ts";
import { route } from "../openapi/operation.ts";
import { getEvent, listEvents } from "../openapi/operations/events.ts";

/** The envelope of spec 2.7, as the webhook carried it. */
function eventJson(event: Event): Record<string, unknown> {
  return { id: event.id, type: event.type, created_at: event.created_at, data: JSON.parse(event.data_json) as unknown };
}

export function eventRoutes(router: Router, core: CoreClient): void {
  route(router, listEvents, async (ctx) => {
    const request = await readOr(
      () => listEventsRequest(ctx.query),
      (malformed_request) => ({ malformed_request }),
    );
    const page = await core.webhooks.listEvents(request, callMeta(ctx));
    ctx.body = { data: page.data.map(eventJson), has_more: page.has_more };
  });

  route(router, getEvent, async (ctx) => {
    const { event } = await core.webhooks.getEvent({ id: ctx.params.id! }, callMeta(ctx));
    // The catalog has no unknown_event: not found reads like an unknown route (README).
    if (!event) throw new PublicError("validation_error", "No such event.", 404);
    ctx.body = eventJson(event);
  });
}
