import { z } from "zod";
import type {
  CreateOwnEndpointRequest,
  ListOwnEndpointsRequest,
  SendTestEventRequest,
  UpdateOwnEndpointRequest,
  WebhookEndpoint,
} from "../../proto/gen/paytami/v1/webhook.ts";
import { EVENT_TYPES } from "../../proto/event-catalog.ts";
import { limitParam, parse, requires, startingAfterParam, text, urlText, type ProtoFields } from "./request-shapes.ts";
import { publicId, timestamp } from "./response-shapes.ts";

// /v1/webhook_endpoints: bodies and queries read into their proto requests (JSON types and unknown
// fields only; the core checks every value: the URL rules, the event catalog), and the endpoint
// object the routes answer with.

const strictBody = <T extends z.ZodRawShape>(fields: T) =>
  z.strictObject(fields, {
    error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "the body must be a JSON object"),
  });

const eventTypes = z
  .array(z.string({ error: "must be an array of event types" }), { error: "must be an array of event types" })
  .meta({ description: "Event types to send (spec 6.2); empty: every type.", override: { items: { type: "string", enum: [...EVENT_TYPES] } } });

export const createEndpointBody = strictBody({
  url: urlText("Where events are POSTed: absolute http(s) without credentials, https in live mode, reaching a public address."),
  enabled_events: eventTypes.optional(),
}).meta({
  id: "CreateWebhookEndpointRequest",
  ...requires("url"),
});

export const updateEndpointBody = strictBody({
  url: urlText("A new URL, checked as at creation."),
  enabled_events: eventTypes.optional(),
  enabled: z.boolean({ error: "must be true or false" }).optional().meta({ description: "false stops deliveries; true starts them again." }),
}).meta({ id: "UpdateWebhookEndpointRequest" });

export const testEventBody = strictBody({
  type: text.meta({ description: "The event type to send (spec 6.2).", override: { enum: [...EVENT_TYPES] } }),
}).meta({ id: "SendTestEventRequest", ...requires("type") });

export const listEndpointsQuery = z.strictObject(
  { limit: limitParam(), starting_after: startingAfterParam("endpoint") } satisfies ProtoFields<ListOwnEndpointsRequest, "malformed_request">,
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown query parameter ${issue.keys.join(", ")}` : "invalid query") },
);

export function createEndpointRequest(body: unknown, idempotencyKey: string): CreateOwnEndpointRequest {
  const { url, enabled_events } = parse(createEndpointBody, body);
  return { idempotency_key: idempotencyKey, url, enabled_events: enabled_events ?? [] };
}

export function updateEndpointRequest(id: string, body: unknown): UpdateOwnEndpointRequest {
  const { url, enabled_events, enabled } = parse(updateEndpointBody, body);
  return { id, url, enabled, enabled_events: enabled_events === undefined ? undefined : { types: enabled_events } };
}

export function testEventRequest(endpointId: string, body: unknown): SendTestEventRequest {
  return { endpoint_id: endpointId, type: parse(testEventBody, body).type ?? "" };
}

export function listEndpointsRequest(query: unknown): ListOwnEndpointsRequest {
  return parse(listEndpointsQuery, query);
}

/** The public endpoint object: never its secret, which only create and rotate answer beside it. */
export interface WebhookEndpointJson {
  id: string;
  url: string;
  enabled_events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export function endpointJson(endpoint: WebhookEndpoint): WebhookEndpointJson {
  return {
    id: endpoint.id,
    url: endpoint.url,
    enabled_events: endpoint.enabled_events,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabled_reason ?? null,
    previous_secret_expires_at: endpoint.previous_secret_expires_at ?? null,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}

const endpointFields = {
  id: publicId("we", "The endpoint's id."),
  url: z.string().meta({ description: "Where events are POSTed." }),
  enabled_events: z.array(z.enum(EVENT_TYPES)).meta({ description: "The event types sent; empty: every type." }),
  enabled: z.boolean().meta({ description: "false: nothing is sent (the merchant disabled it, or it only failed for 5 days)." }),
  disabled_reason: z.string().nullable().meta({ description: "Why it is disabled; null while enabled." }),
  previous_secret_expires_at: timestamp.nullable().meta({ description: "After a rotation: until when the previous secret still signs too; null otherwise." }),
  created_at: timestamp,
  updated_at: timestamp,
};

export const endpointShape = z
  .strictObject(endpointFields)
  .meta({ id: "WebhookEndpoint", description: "A webhook endpoint. Its secret is never shown here." }) satisfies z.ZodType<WebhookEndpointJson>;

export const endpointWithSecretShape = z
  .strictObject({
    ...endpointFields,
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9_-]{43}$/)
      .meta({ description: "The signing secret (whsec_…): shown only in the create and rotate answers. Keep it." }),
  })
  .meta({ id: "WebhookEndpointWithSecret", description: "A webhook endpoint with its signing secret, as created or rotated." });

export const deletedEndpointShape = z
  .strictObject({ id: publicId("we", "The deleted endpoint's id."), deleted: z.literal(true) })
  .meta({ id: "DeletedWebhookEndpoint" });

export const testEventShape = z
  .strictObject({
    event_id: publicId("evt", "The test event's id (its Service-Event-Id)."),
    type: z.enum(EVENT_TYPES),
    endpoint_id: publicId("we", "The endpoint it goes to."),
  })
  .meta({ id: "TestEventSent", description: "A test event, queued for that endpoint only." });
