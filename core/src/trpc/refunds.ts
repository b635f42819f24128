import { z } from "zod";
import { refunds } from "../operations/refunds.ts";
import { pageQuery } from "./inputs.ts";
import { ACTING_FOR, actingFor, asIs, query } from "./operation-procedure.ts";
import { router } from "./init.ts";

// An operator (later: the dashboard's session) acts for one merchant in one mode, with the same
// operations, validation and errors as the merchant's API key gets through REST. Outputs are the
// Refund object of GET /v1/refunds.
const listInput = z.strictObject({
  ...ACTING_FOR,
  payment_id: z.string().optional(),
  limit: z.number().int().optional(),
  starting_after: z.string().optional(),
});
const byId = z.strictObject({ ...ACTING_FOR, id: z.string() });

export const refundsRouter = router({
  list: query(refunds.list, listInput, actingFor, (input) => ({ ...pageQuery(input), payment_id: input.payment_id }), asIs),
  get: query(refunds.get, byId, actingFor, (input) => input.id, asIs),
});
