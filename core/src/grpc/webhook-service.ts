import { modeCodec } from "../../../proto/enums.ts";
import { noInput } from "../operations/index.ts";
import type { Mode } from "../../../proto/gen/paytami/v1/enums.ts";
import {
  WebhookServiceService,
  type Event,
  type ListEventsRequest,
  type ListOwnEndpointsRequest,
  type UpdateOwnEndpointRequest,
  type UpdateEndpointRequest,
  type WebhookEndpoint,
  type WebhookServiceServer,
} from "../../../proto/gen/paytami/v1/webhook.ts";
import type { CoreDeps } from "../domain/deps.ts";
import type { EventPage } from "../domain/events.ts";
import { webhooks } from "../operations/webhooks.ts";
import { endpointDeliveries } from "../operations/endpoint-deliveries.ts";
import type { Page } from "../domain/keyset-page.ts";
import type { IdempotentResult } from "../domain/idempotency.ts";
import type { EventEnvelope } from "../domain/outbox.ts";
import type { TriggeredEvent } from "../domain/trigger-event.ts";
import type { EndpointView, EndpointWithSecret } from "../domain/webhook-endpoints.ts";
import { actingFor, apiKey, operator } from "./caller.ts";
import { call, serviceOf } from "./method-table.ts";
import { byId, idempotentCommand } from "./requests.ts";

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

/** The merchant and mode the request names: the operator acts for them. */
const owner = actingFor((request: { merchant_id: string; mode: Mode }) => request);
const withSecret = (made: EndpointWithSecret) => ({ endpoint: toEndpointMessage(made.endpoint), secret: made.secret });
const theEndpoint = (view: EndpointView) => ({ endpoint: toEndpointMessage(view) });
const endpointInput = (request: { url: string; enabled_events: string[] }) => ({ url: request.url, enabledEvents: request.enabled_events });
const updateInput = (request: UpdateEndpointRequest) => ({ id: request.id, enabledEvents: request.enabled_events?.types, enabled: request.enabled });
const eventsQuery = (request: ListEventsRequest) => ({
  limit: request.limit,
  starting_after: request.starting_after,
  type: request.type,
  malformed: request.malformed_request,
});
const eventPage = (page: EventPage) => ({ data: page.data.map(toEventMessage), has_more: page.has_more });
const fired = (event: TriggeredEvent) => ({ event_id: event.eventId, type: event.type, object_id: event.objectId });

const ownPage = (request: ListOwnEndpointsRequest) => ({ limit: request.limit, starting_after: request.starting_after, malformed: request.malformed_request });
const endpointPage = (page: Page<EndpointView>) => ({ data: page.data.map(toEndpointMessage), has_more: page.has_more });
const created = (made: IdempotentResult<EndpointWithSecret>) => ({ ...withSecret(made.value), replayed: made.replayed });
/** The body's fields by the public names, for the operation to validate (enabled_events keeps "absent" apart from "every type"). */
const ownUpdate = (request: UpdateOwnEndpointRequest) => {
  const { id, malformed_request, ...input } = request;
  return { id, input, malformed: malformed_request };
};

export function webhookService(deps: CoreDeps): WebhookServiceServer {
  return serviceOf(deps, WebhookServiceService, {
    createEndpoint: call(webhooks.createEndpoint, owner, endpointInput, withSecret),
    listEndpoints: call(webhooks.listEndpoints, owner, noInput, (views) => ({ data: views.map(toEndpointMessage) })),
    updateEndpoint: call(webhooks.updateEndpoint, operator, updateInput, theEndpoint),
    rotateSecret: call(webhooks.rotateSecret, operator, byId, withSecret),
    deleteEndpoint: call(webhooks.deleteEndpoint, operator, byId, (deleted) => deleted),
    listEvents: call(webhooks.listEvents, apiKey, eventsQuery, eventPage),
    // An unknown id is an empty answer, not an error: the catalog has no unknown_event code, so the
    // facade decides how "not found" reads (404 validation_error, like an unknown route).
    getEvent: call(webhooks.getEvent, apiKey, byId, (envelope) => ({ event: envelope && toEventMessage(envelope) })),
    triggerEvent: call(webhooks.trigger, owner, (request) => ({ type: request.type }), fired),
    // /v1/webhook_endpoints: the merchant's API key.
    createOwnEndpoint: call(webhooks.createOwnEndpoint, apiKey, idempotentCommand, created),
    listOwnEndpoints: call(webhooks.listOwnEndpoints, apiKey, ownPage, endpointPage),
    getOwnEndpoint: call(webhooks.getOwnEndpoint, apiKey, byId, theEndpoint),
    updateOwnEndpoint: call(webhooks.updateOwnEndpoint, apiKey, ownUpdate, theEndpoint),
    rotateOwnEndpointSecret: call(webhooks.rotateSecret, apiKey, byId, withSecret),
    deleteOwnEndpoint: call(webhooks.deleteEndpoint, apiKey, byId, (deleted) => deleted),
    sendTestEvent: call(
      endpointDeliveries.sendTestEvent,
      apiKey,
      (request) => ({ endpointId: request.endpoint_id, type: request.type }),
      (sent) => sent,
    ),
  });
}
