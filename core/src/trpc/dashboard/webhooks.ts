import { z } from "zod";
import { deliveries } from "../../operations/deliveries.ts";
import { endpointDeliveries } from "../../operations/endpoint-deliveries.ts";
import { noInput } from "../../operations/index.ts";
import { webhookSecrets } from "../../operations/webhook-secrets.ts";
import { webhooks } from "../../operations/webhooks.ts";
import { PAGE, pageQuery } from "../inputs.ts";
import { asIs, NO_INPUT, sessionMutation, sessionQuery } from "../operation-procedure.ts";

/**
 * dashboard.webhooks.*: the session's merchant-and-mode's endpoints (developers and up) and their
 * delivery log (viewers read it; developers replay). The same operations the operator's CLI and the
 * merchant REST API run; the input never names a merchant or a mode. Endpoint secrets leave only in
 * create, rotate and `revealSecret` — a mutation, so a reveal is CSRF-checked and audited.
 */
const anEndpoint = z.strictObject({ id: z.string() });

export const webhooksRouter = {
  list: sessionQuery(webhooks.listEndpoints, NO_INPUT, noInput, (data) => ({ data })),
  // One endpoint (another merchant's or mode's answers validation_error, as an unknown one).
  get: sessionQuery(webhooks.getOwnEndpoint, anEndpoint, (input) => input.id, asIs),
  // enabled_events: event types of the catalog (proto/event-catalog.ts); empty = every type.
  create: sessionMutation(
    webhooks.createEndpoint,
    z.strictObject({ url: z.string(), enabled_events: z.array(z.string()) }),
    (input) => ({ url: input.url, enabledEvents: input.enabled_events }),
    asIs,
  ),
  update: sessionMutation(
    webhooks.updateEndpoint,
    z.strictObject({ id: z.string(), enabled_events: z.array(z.string()).optional(), enabled: z.boolean().optional() }),
    (input) => ({ id: input.id, enabledEvents: input.enabled_events, enabled: input.enabled }),
    asIs,
  ),
  rotateSecret: sessionMutation(webhooks.rotateSecret, anEndpoint, (input) => input.id, asIs),
  revealSecret: sessionMutation(webhookSecrets.reveal, anEndpoint, (input) => input.id, asIs),
  delete: sessionMutation(webhooks.deleteEndpoint, anEndpoint, (input) => input.id, asIs),
  // An endpoint's deliveries, newest first in keyset pages, each with every attempt (time, status,
  // latency, response excerpt); `failed` and `event_type` filter them.
  deliveries: sessionQuery(
    endpointDeliveries.list,
    z.strictObject({ endpoint_id: z.string(), failed: z.boolean().optional(), event_type: z.string().optional(), ...PAGE }),
    (input) => ({ endpointId: input.endpoint_id, failed: input.failed, eventType: input.event_type, ...pageQuery(input) }),
    asIs,
  ),
  // One delivery with every attempt, oldest first (the event page's deliveries, whatever endpoint).
  delivery: sessionQuery(deliveries.get, z.strictObject({ id: z.string() }), (input) => input.id, asIs),
  replay: sessionMutation(
    endpointDeliveries.replay,
    z.strictObject({ endpoint_id: z.string(), id: z.string() }),
    (input) => ({ endpointId: input.endpoint_id, deliveryId: input.id }),
    asIs,
  ),
  // The endpoint's failed deliveries created at or after `since` (ISO 8601), at most
  // WEBHOOK_REPLAY_FAILED_MAX a call: `has_more` says to call again.
  replayFailed: sessionMutation(
    endpointDeliveries.replayFailedSince,
    z.strictObject({ endpoint_id: z.string(), since: z.string() }),
    (input) => ({ endpointId: input.endpoint_id, since: input.since }),
    asIs,
  ),
  // A real signed event of a catalog type, marked test_event, to this endpoint only.
  sendTest: sessionMutation(
    endpointDeliveries.sendTestEvent,
    z.strictObject({ endpoint_id: z.string(), type: z.string() }),
    (input) => ({ endpointId: input.endpoint_id, type: input.type }),
    asIs,
  ),
};
