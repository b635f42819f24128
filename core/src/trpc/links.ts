import { z } from "zod";
import { links } from "../operations/links.ts";
import { router } from "./init.ts";
import { pageQuery } from "./inputs.ts";
import { ACTING_FOR, actingFor, asIs, mutation, query } from "./operation-procedure.ts";

// An operator (later: the dashboard's session) acts for one merchant in one mode, with the same
// operations, validation and errors as the merchant's API key gets through REST. Outputs are the
// link object of GET /v1/payment_links.
const createInput = z.object({ ...ACTING_FOR, idempotency_key: z.string().optional() }).loose();
const listInput = z.strictObject({ ...ACTING_FOR, limit: z.number().int().optional(), starting_after: z.string().optional() });
const byId = z.strictObject({ ...ACTING_FOR, id: z.string() });

/** The link's fields as sent (the operation validates them, unknown ones included), with the key if any. */
function createCommand(input: z.output<typeof createInput>) {
  const { merchant_id: _merchant, mode: _mode, idempotency_key, ...fields } = input;
  return { idempotencyKey: idempotency_key, input: fields };
}

export const linksRouter = router({
  create: mutation(links.create, createInput, actingFor, createCommand, (result) => result.value),
  list: query(links.list, listInput, actingFor, pageQuery, asIs),
  get: query(links.get, byId, actingFor, (input) => input.id, asIs),
  deactivate: mutation(links.deactivate, byId, actingFor, (input) => input.id, asIs),
});
