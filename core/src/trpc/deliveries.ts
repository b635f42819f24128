import { z } from "zod";
import { deliveries } from "../operations/deliveries.ts";
import { router } from "./init.ts";
import { asIs, mutation, operator, query } from "./operation-procedure.ts";

const listInput = z.strictObject({
  endpoint_id: z.string().optional(),
  event_id: z.string().optional(),
  status: z.string().optional(),
  limit: z.number().int().optional(),
});
const byId = z.strictObject({ id: z.string() });
const replayFailedInput = z.strictObject({ endpoint_id: z.string(), since: z.string() });

const listQuery = (input: z.output<typeof listInput>) => ({ endpointId: input.endpoint_id, eventId: input.event_id, status: input.status, limit: input.limit });
const replayed = (ids: string[]) => ({ replayed: ids.length, delivery_ids: ids });

/** Webhook deliveries for operators: list, one with its attempts, replay one or an endpoint's failed ones. */
export const deliveriesRouter = router({
  list: query(deliveries.list, listInput, operator, listQuery, (data) => ({ data })),
  get: query(deliveries.get, byId, operator, (input) => input.id, asIs),
  replay: mutation(deliveries.replay, byId, operator, (input) => input.id, asIs),
  replayFailed: mutation(deliveries.replayFailed, replayFailedInput, operator, (input) => ({ endpointId: input.endpoint_id, since: input.since }), replayed),
});
