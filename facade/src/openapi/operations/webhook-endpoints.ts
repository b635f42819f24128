import { pageOf } from "../../response-shapes.ts";
import {
  createEndpointBody,
  deletedEndpointShape,
  endpointShape,
  endpointWithSecretShape,
  listEndpointsQuery,
  testEventBody,
  testEventShape,
  updateEndpointBody,
} from "../../webhook-endpoint-shapes.ts";
import { idParam, operation } from "../operation.ts";

const endpointId = idParam("The endpoint's id (we_…).");

const notFound = {
  code: "validation_error" as const,
  status: 404,
  when: "No such endpoint of the key's merchant and mode (deleted, another merchant's or mode's): the catalog has no code of its own for it, so it reads like an unknown route.",
};

export const createWebhookEndpoint = operation({
  operationId: "createWebhookEndpoint",
  method: "post",
  path: "/v1/webhook_endpoints",
  tag: "Webhook endpoints",
  summary: "Create a webhook endpoint",
  description:
    "Registers a URL to receive the key's events (its merchant and mode), signed in `Service-Signature` with the returned `secret`: the only answer that shows it, besides a rotation's.",
  auth: "merchant",
  idempotencyKey: "required",
  body: createEndpointBody,
  response: { status: 201, description: "The endpoint with its secret, created (or replayed).", body: endpointWithSecretShape, replayable: true },
  errors: ["idempotency_key_required", "idempotency_key_reused", "validation_error"],
});

export const listWebhookEndpoints = operation({
  operationId: "listWebhookEndpoints",
  method: "get",
  path: "/v1/webhook_endpoints",
  tag: "Webhook endpoints",
  summary: "List webhook endpoints",
  description: "The key's endpoints, newest first, in keyset pages. No secrets.",
  auth: "merchant",
  query: listEndpointsQuery,
  response: { status: 200, description: "A page of endpoints.", body: pageOf(endpointShape, "WebhookEndpointPage") },
  errors: ["validation_error"],
});

export const getWebhookEndpoint = operation({
  operationId: "getWebhookEndpoint",
  method: "get",
  path: "/v1/webhook_endpoints/:id",
  tag: "Webhook endpoints",
  summary: "Retrieve a webhook endpoint",
  description: "One endpoint, without its secret.",
  auth: "merchant",
  pathParams: endpointId,
  response: { status: 200, description: "The endpoint.", body: endpointShape },
  errors: [notFound],
});

export const updateWebhookEndpoint = operation({
  operationId: "updateWebhookEndpoint",
  method: "post",
  path: "/v1/webhook_endpoints/:id",
  tag: "Webhook endpoints",
  summary: "Update a webhook endpoint",
  description: "Changes its `url` (checked as at creation), `enabled_events` and/or `enabled`. Enabling clears `disabled_reason`.",
  auth: "merchant",
  pathParams: endpointId,
  body: updateEndpointBody,
  response: { status: 200, description: "The endpoint as changed.", body: endpointShape },
  errors: ["validation_error", notFound],
});

export const deleteWebhookEndpoint = operation({
  operationId: "deleteWebhookEndpoint",
  method: "delete",
  path: "/v1/webhook_endpoints/:id",
  tag: "Webhook endpoints",
  summary: "Delete a webhook endpoint",
  description: "Nothing more is sent to it, pending deliveries included.",
  auth: "merchant",
  pathParams: endpointId,
  response: { status: 200, description: "It is gone.", body: deletedEndpointShape },
  errors: [notFound],
});

export const rotateWebhookEndpointSecret = operation({
  operationId: "rotateWebhookEndpointSecret",
  method: "post",
  path: "/v1/webhook_endpoints/:id/rotate_secret",
  tag: "Webhook endpoints",
  summary: "Rotate an endpoint's secret",
  description:
    "A new secret, shown in this answer only. For 24 h (`previous_secret_expires_at`) every delivery is signed with both, one `v1=` each, so the receiver can switch without losing events.",
  auth: "merchant",
  pathParams: endpointId,
  response: { status: 200, description: "The endpoint with its new secret.", body: endpointWithSecretShape },
  errors: [notFound],
});

export const sendWebhookTestEvent = operation({
  operationId: "sendWebhookTestEvent",
  method: "post",
  path: "/v1/webhook_endpoints/:id/test_event",
  tag: "Webhook endpoints",
  summary: "Send a test event to an endpoint",
  description:
    'Queues a signed event of `type` for this endpoint only, delivered like any event. It is marked `"test_event": true` with `livemode`, its data\'s ids are all zeros, it moves no money and is not listed in GET /v1/events.',
  auth: "merchant",
  pathParams: endpointId,
  body: testEventBody,
  response: { status: 200, description: "The test event, queued.", body: testEventShape },
  errors: ["validation_error", notFound],
});
