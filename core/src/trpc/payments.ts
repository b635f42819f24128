import { z } from "zod";
import { payments } from "../operations/payments.ts";
import { router } from "./init.ts";
import { pageQuery } from "./inputs.ts";
import { ACTING_FOR, actingFor, asIs, mutation, operator, query } from "./operation-procedure.ts";

// An operator acts for one merchant in one mode: the same operations, validation and errors as the
// merchant's own API key gets through REST.
const getInput = z.strictObject({ ...ACTING_FOR, id: z.string() });
const listInput = z.strictObject({ ...ACTING_FOR, limit: z.number().int().optional(), starting_after: z.string().optional(), status: z.string().optional() });
const cancelInput = z.strictObject({ ...ACTING_FOR, id: z.string(), idempotency_key: z.string().optional() });
const simulateInput = z.strictObject({ payment_id: z.string(), step: z.string() });

export const paymentsRouter = router({
  get: query(payments.get, getInput, actingFor, (input) => input.id, asIs),
  list: query(payments.list, listInput, actingFor, (input) => ({ ...pageQuery(input), status: input.status }), asIs),
  // The merchant's cancel, as POST /v1/payments/{id}/cancel answers it (Idempotency-Key optional).
  cancel: mutation(
    payments.cancel,
    cancelInput,
    actingFor,
    (input) => ({ id: input.id, idempotencyKey: input.idempotency_key }),
    (result) => result.value,
  ),
  simulate: mutation(payments.simulate, simulateInput, operator, (input) => ({ paymentId: input.payment_id, step: input.step }), asIs),
});
