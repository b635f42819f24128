import { z } from "zod";
import { listEndpointDeliveries, replayEndpointDelivery, replayFailedSince } from "../domain/endpoint-deliveries.ts";
import { defineOperation } from "../domain/operation.ts";
import { sendTestEvent } from "../domain/test-event.ts";
import { aNumber } from "./inputs.ts";

/**
 * One endpoint's deliveries, for its merchant: a dashboard developer (session) or the merchant's own
 * API key. The names and inputs are stable (core/README.md, "Webhook endpoints: merchant API and
 * delivery log"): the dashboard's tRPC procedures call them.
 */
export const endpointDeliveries = {
  list: defineOperation({
    name: "list_endpoint_deliveries",
    callers: ["merchant", "session"],
    role: "developer",
    input: z.strictObject({
      endpointId: z.string(),
      limit: aNumber.optional(),
      starting_after: z.string().optional(),
      failed: z.boolean().optional(),
      eventType: z.string().optional(),
    }),
    transaction: "read",
    run: listEndpointDeliveries,
  }),
  replay: defineOperation({
    name: "replay_endpoint_delivery",
    callers: ["merchant", "session"],
    role: "developer",
    input: z.strictObject({ endpointId: z.string(), deliveryId: z.string() }),
    transaction: "transaction",
    run: replayEndpointDelivery,
  }),
  replayFailedSince: defineOperation({
    name: "replay_failed_since",
    callers: ["merchant", "session"],
    role: "developer",
    input: z.strictObject({ endpointId: z.string(), since: z.string() }),
    transaction: "transaction",
    run: replayFailedSince,
  }),
  // One outbox row naming the endpoint; the relay and the dispatchers do the rest, as for any event.
  sendTestEvent: defineOperation({
    name: "send_test_event",
    callers: ["merchant", "session"],
    role: "developer",
    input: z.strictObject({ endpointId: z.string(), type: z.string() }),
    transaction: "transaction",
    run: sendTestEvent,
  }),
};
