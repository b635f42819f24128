import { modeCodec } from "../../../proto/enums.ts";
import type { Event, WebhookEndpoint, WebhookServiceServer } from "../../../proto/gen/paytami/v1/webhook.ts";
import type { Mode } from "../../../proto/gen/paytami/v1/enums.ts";
import type { MerchantCaller } from "../domain/caller.ts";
import { legacyActingMerchant as actingMerchant } from "./caller.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { getEvent, listEvents } from "../domain/events.ts";
import { triggerEvent } from "../domain/trigger-event.ts";
import type { EventEnvelope } from "../domain/outbox.ts";
import { inTransaction, withoutTransaction } from "../domain/unit-of-work.ts";
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  rotateEndpointSecret,
  updateEndpoint,
  type EndpointView,
} from "../domain/webhook-endpoints.ts";
import { merchantFromApiKey } from "./caller.ts";
import { unary, type CallContext } from "./unary.ts";

export function toEndpointMessage(view: EndpointView): WebhookEndpoint {
  return {
    ...view,
    mode: modeCodec.fromWire(view.mode),
    disabled_reason: view.disabled_reason ?? undefined,
    previous_secret_expires_at: view.previous_secret_expires_at ?? undefined,
  };
}

export function toEventMessage(envelope: EventEnvelope): Event {
  return { id: envelope.id, type: envelope.type, created_at: envelope.created_at, data_json: JSON.stringify(envelope.data) };
}

/** The operator acting for the merchant and mode the request names. */
const actingFor = (ctx: CallContext, request: { merchant_id: string; mode: Mode }): MerchantCaller => actingMerchant(ctx, request);

export function webhookService(deps: CoreDeps): WebhookServiceServer {
  const handle = <Req, Res>(method: string, fn: (request: Req, context: CallContext) => Promise<Res>) => unary<Req, Res>(deps, method, fn);
  return {
    createEndpoint: handle("CreateEndpoint", async (request, ctx) => {
      const created = await withoutTransaction(deps, (tx) =>
        createEndpoint(deps, tx, actingFor(ctx, request), { url: request.url, enabledEvents: request.enabled_events }));
      return { endpoint: toEndpointMessage(created.endpoint), secret: created.secret };
    }),
    listEndpoints: handle("ListEndpoints", async (request, ctx) => ({
      data: (await withoutTransaction(deps, (tx) => listEndpoints(deps, tx, actingFor(ctx, request)))).map(toEndpointMessage),
    })),
    updateEndpoint: handle("UpdateEndpoint", async (request, ctx) => {
      const input = { enabledEvents: request.enabled_events?.types, enabled: request.enabled };
      return { endpoint: toEndpointMessage(await inTransaction(deps, (tx) => updateEndpoint(deps, tx, ctx.operator, request.id, input))) };
    }),
    rotateSecret: handle("RotateSecret", async (request, ctx) => {
      const rotated = await inTransaction(deps, (tx) => rotateEndpointSecret(deps, tx, ctx.operator, request.id));
      return { endpoint: toEndpointMessage(rotated.endpoint), secret: rotated.secret };
    }),
    deleteEndpoint: handle("DeleteEndpoint", async (request, ctx) => inTransaction(deps, (tx) => deleteEndpoint(deps, tx, ctx.operator, request.id))),
    listEvents: handle("ListEvents", async (request, ctx) => {
      const caller = await merchantFromApiKey(deps, ctx);
      const page = await withoutTransaction(deps, (tx) => listEvents(deps, tx, caller, {
        limit: request.limit,
        starting_after: request.starting_after,
        type: request.type,
        malformed: request.malformed_request,
      }));
      return { data: page.data.map(toEventMessage), has_more: page.has_more };
    }),
    // An unknown id is an empty answer, not an error: the catalog has no unknown_event code, so the
    // facade decides how "not found" reads (404 validation_error, like an unknown route).
    getEvent: handle("GetEvent", async (request, ctx) => {
      const caller = await merchantFromApiKey(deps, ctx);
      const envelope = await withoutTransaction(deps, (tx) => getEvent(deps, tx, caller, request.id));
      return { event: envelope && toEventMessage(envelope) };
    }),
    triggerEvent: handle("TriggerEvent", async (request, ctx) => {
      const fired = await triggerEvent(deps, ctx.operator, actingFor(ctx, request), request.type);
      return { event_id: fired.eventId, type: fired.type, object_id: fired.objectId };
    }),
  };
}
