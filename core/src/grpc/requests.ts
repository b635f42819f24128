// Request → input mappings several services share.
import type { IdempotentCommand } from "../operations/inputs.ts";

/**
 * A create request (payment, link, refund): its Idempotency-Key ("" when absent), why the facade
 * could not read the body (if it could not), and the rest of the fields: the body, which the
 * operation reads by the public API's names (`json_only` is how the answer is shaped, not body).
 */
export function idempotentCommand<
  Req extends { idempotency_key?: string | undefined; malformed_request?: string | undefined; acting_for?: unknown; json_only?: boolean | undefined },
>(request: Req): IdempotentCommand {
  const { acting_for: _acting, idempotency_key, malformed_request, json_only: _jsonOnly, ...input } = request;
  return { idempotencyKey: idempotency_key === "" ? undefined : idempotency_key, input, malformed: malformed_request };
}

/** A request that names one object by `id`. */
export const byId = (request: { id: string }): string => request.id;
