import { z } from "zod";
import { defineOperation } from "../domain/operation.ts";
import { claimDueDeliveries, recordAttemptsThenClaim } from "../jobs/claim-due-deliveries.ts";
import { recordDeliveries, releaseDeliveries } from "../domain/webhook-deliveries.ts";
import { getDelivery, listDeliveries, listRecentEvents, replayDelivery, replayFailedDeliveries } from "../domain/webhook-delivery-log.ts";
import { aNumber, anId } from "./inputs.ts";

const claim = { limit: aNumber, leaseMs: aNumber };

const outcome = z.strictObject({
  deliveryId: z.string(),
  // Checked one by one by the operation (an invalid one is rejected alone, with its reason).
  attemptedAt: z.instanceof(Date),
  httpStatus: aNumber.optional(),
  error: z.string().optional(),
  latencyMs: aNumber,
  responseExcerpt: z.string(),
  retryAfterMs: aNumber.optional(),
});

/** Webhook delivery's bookkeeping (the dispatcher, or an operator), and the delivery log (operators; a dashboard session: its own, viewers read, developers replay). */
export const deliveries = {
  record: defineOperation({
    name: "record_deliveries",
    callers: ["operator", "dispatcher"],
    input: z.array(z.string()),
    transaction: "transaction",
    run: recordDeliveries,
  }),
  claimDue: defineOperation({
    name: "claim_due_deliveries",
    callers: ["operator", "dispatcher"],
    input: z.strictObject(claim),
    transaction: "steps",
    run: claimDueDeliveries,
  }),
  // The outcomes in a transaction of their own, then the next claim once they committed.
  recordAttempts: defineOperation({
    name: "record_attempts",
    callers: ["operator", "dispatcher"],
    input: z.strictObject({ outcomes: z.array(outcome), claim: z.strictObject(claim) }),
    transaction: "steps",
    run: recordAttemptsThenClaim,
  }),
  release: defineOperation({
    name: "release_deliveries",
    callers: ["operator", "dispatcher"],
    input: z.array(z.string()),
    transaction: "transaction",
    run: releaseDeliveries,
  }),
  list: defineOperation({
    name: "list_deliveries",
    callers: ["operator", "session"],
    role: "viewer",
    input: z.strictObject({ endpointId: z.string().optional(), eventId: z.string().optional(), status: z.string().optional(), limit: aNumber.optional() }),
    transaction: "read",
    run: listDeliveries,
  }),
  get: defineOperation({ name: "get_delivery", callers: ["operator", "session"], role: "viewer", input: anId, transaction: "read", run: getDelivery }),
  replay: defineOperation({
    name: "replay_delivery",
    callers: ["operator", "session"],
    role: "developer",
    input: anId,
    transaction: "transaction",
    run: replayDelivery,
  }),
  replayFailed: defineOperation({
    name: "replay_failed_deliveries",
    callers: ["operator", "session"],
    role: "developer",
    input: z.strictObject({ endpointId: z.string(), since: z.string() }),
    transaction: "transaction",
    run: replayFailedDeliveries,
  }),
  listRecentEvents: defineOperation({
    name: "list_recent_events",
    callers: ["operator"],
    input: z.strictObject({ merchantId: z.string(), mode: z.string(), since: z.string().optional(), limit: aNumber.optional() }),
    transaction: "read",
    run: listRecentEvents,
  }),
};
