import { z } from "zod";
import { webhooks } from "../operations/webhooks.ts";
import type { EndpointWithSecret } from "../domain/webhook-endpoints.ts";
import { router } from "./init.ts";
import { ACTING_FOR, actingFor, asIs, mutation, operator, query } from "./operation-procedure.ts";
import { noInput } from "../operations/index.ts";

// An operator acts for one merchant in one mode to register and list endpoints; an endpoint id
// names its merchant and mode by itself.
const createInput = z.strictObject({ ...ACTING_FOR, url: z.string(), enabled_events: z.array(z.string()).default([]) });
const updateInput = z.strictObject({ id: z.string(), enabled_events: z.array(z.string()).optional(), enabled: z.boolean().optional() });
const byId = z.strictObject({ id: z.string() });

/** The endpoint with its secret beside its fields (shown once). */
const withSecret = ({ endpoint, secret }: EndpointWithSecret) => ({ ...endpoint, secret });

export const webhooksRouter = router({
  create: mutation(webhooks.createEndpoint, createInput, actingFor, (input) => ({ url: input.url, enabledEvents: input.enabled_events }), withSecret),
  list: query(webhooks.listEndpoints, z.strictObject(ACTING_FOR), actingFor, noInput, (data) => ({ data })),
  update: mutation(
    webhooks.updateEndpoint,
    updateInput,
    operator,
    (input) => ({ id: input.id, enabledEvents: input.enabled_events, enabled: input.enabled }),
    asIs,
  ),
  rotate: mutation(webhooks.rotateSecret, byId, operator, (input) => input.id, withSecret),
  delete: mutation(webhooks.deleteEndpoint, byId, operator, (input) => input.id, asIs),
});
