import { z } from "zod";
import { getEvent, listEvents } from "../domain/events.ts";
import { defineOperation } from "../domain/operation.ts";
import { triggerEvent } from "../domain/trigger-event.ts";
import { createEndpoint, deleteEndpoint, listEndpoints, rotateEndpointSecret, updateEndpoint } from "../domain/webhook-endpoints.ts";
import { createOwnEndpoint, getOwnEndpoint, listOwnEndpoints, updateOwnEndpoint } from "../domain/own-endpoints.ts";
import { anId, idempotentCommand, noInput, pageQuery } from "./inputs.ts";

/**
 * Webhook endpoints (the operator, for a merchant, or a dashboard developer for its own; an endpoint
 * id names its merchant by itself), and events.
 */
export const webhooks = {
  createEndpoint: defineOperation({
    name: "create_endpoint",
    callers: ["operator", "session"],
    role: "developer",
    input: z.strictObject({ url: z.string(), enabledEvents: z.array(z.string()) }),
    // The URL's DNS lookup first, then one atomic insert: no transaction is held across the lookup.
    transaction: "steps",
    run: createEndpoint,
  }),
  listEndpoints: defineOperation({
    name: "list_endpoints",
    callers: ["operator", "session"],
    role: "developer",
    input: noInput,
    transaction: "read",
    run: listEndpoints,
  }),
  updateEndpoint: defineOperation({
    name: "update_endpoint",
    callers: ["operator", "session"],
    role: "developer",
    input: z.strictObject({ id: z.string(), enabledEvents: z.array(z.string()).optional(), enabled: z.boolean().optional() }),
    transaction: "transaction",
    run: updateEndpoint,
  }),
  rotateSecret: defineOperation({
    name: "rotate_endpoint_secret",
    callers: ["merchant", "operator", "session"],
    role: "developer",
    input: anId,
    transaction: "transaction",
    run: rotateEndpointSecret,
  }),
  deleteEndpoint: defineOperation({
    name: "delete_endpoint",
    callers: ["merchant", "operator", "session"],
    role: "developer",
    input: anId,
    transaction: "transaction",
    run: deleteEndpoint,
  }),
  // /v1/webhook_endpoints with the merchant's API key (rotate and delete above admit it too).
  // Idempotency-Key, then the key, then the body; the URL's DNS lookup before the one short transaction.
  createOwnEndpoint: defineOperation({
    name: "create_webhook_endpoint",
    callers: ["merchant"],
    apiKey: "presented",
    input: idempotentCommand,
    transaction: "steps",
    replaySafe: true,
    run: createOwnEndpoint,
  }),
  listOwnEndpoints: defineOperation({
    name: "list_webhook_endpoints",
    callers: ["merchant", "session"],
    role: "developer",
    input: z.strictObject(pageQuery),
    transaction: "read",
    run: listOwnEndpoints,
  }),
  getOwnEndpoint: defineOperation({
    name: "get_webhook_endpoint",
    callers: ["merchant", "session"],
    role: "developer",
    input: anId,
    transaction: "read",
    run: getOwnEndpoint,
  }),
  updateOwnEndpoint: defineOperation({
    name: "update_webhook_endpoint",
    callers: ["merchant"],
    input: z.strictObject({ id: z.string(), input: z.unknown(), malformed: z.string().optional() }),
    transaction: "steps",
    run: updateOwnEndpoint,
  }),
  // GET /v1/events and /v1/events/{id}.
  listEvents: defineOperation({
    name: "list_events",
    callers: ["merchant", "session"],
    role: "viewer",
    input: z.strictObject({ ...pageQuery, type: z.string().optional() }),
    transaction: "read",
    run: listEvents,
  }),
  getEvent: defineOperation({ name: "get_event", callers: ["merchant", "session"], role: "viewer", input: anId, transaction: "read", run: getEvent }),
  // The fixture in one transaction, then (payouts) the bank's steps, each its own.
  trigger: defineOperation({
    name: "trigger_event",
    callers: ["operator"],
    input: z.strictObject({ type: z.string() }),
    transaction: "steps",
    run: triggerEvent,
  }),
};
