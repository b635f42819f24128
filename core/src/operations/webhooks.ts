import { z } from "zod";
import { getEvent, listEvents } from "../domain/events.ts";
import { defineOperation } from "../domain/operation.ts";
import { triggerEvent } from "../domain/trigger-event.ts";
import { createEndpoint, deleteEndpoint, listEndpoints, rotateEndpointSecret, updateEndpoint } from "../domain/webhook-endpoints.ts";
import { anId, noInput, pageQuery } from "./inputs.ts";

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
    callers: ["operator", "session"],
    role: "developer",
    input: anId,
    transaction: "transaction",
    run: rotateEndpointSecret,
  }),
  deleteEndpoint: defineOperation({
    name: "delete_endpoint",
    callers: ["operator", "session"],
    role: "developer",
    input: anId,
    transaction: "transaction",
    run: deleteEndpoint,
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
