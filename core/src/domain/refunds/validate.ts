import { z } from "zod";
import { readableApiKey, resolveApiKey } from "../api-keys.ts";
import type { MerchantCaller, PresentedCredential } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import { DomainError, fail } from "../errors.ts";
import { checkIdempotencyKeyShape, requestFingerprint, requireIdempotencyKey } from "../idempotency.ts";
import { isId } from "../ids.ts";
import { AMOUNT_SCHEMA, parseOrFail } from "../payment-input.ts";
import type { Tx } from "../unit-of-work.ts";
import type { RefundOwner } from "./lock.ts";
import { REFUND_REASONS, unknownPayment } from "./view.ts";

const refundInputSchema = z.strictObject(
  {
    payment_id: z.string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") }),
    amount: AMOUNT_SCHEMA.refine((text) => text !== "0", "must be greater than 0").optional(),
    reason: z.enum(REFUND_REASONS, { error: `must be one of ${REFUND_REASONS.join(", ")}` }).optional(),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "the body must be a JSON object") },
);

export type RefundInput = z.infer<typeof refundInputSchema>;

export interface CreateRefundCommand {
  /** Required with an API key (REST semantics); optional for an operator acting for a merchant. */
  idempotencyKey?: string | undefined;
  /** The body as the caller sent it ({payment_id, amount?, reason?}); validated here. */
  input: unknown;
  /** Why the transport could not read the request, if it could not. */
  malformed?: string | undefined;
}

/** A refund request that passed every check made before the database. */
export interface RefundRequest {
  key: string | undefined;
  input: RefundInput;
  /** Of the validated input, bound to the idempotency key. */
  fingerprint: string;
  owner: RefundOwner;
}

/**
 * The checks before the database, in order: Idempotency-Key (required with an API key), credential
 * form, body shape, a payment id of the right form. A refusal from the body still resolves the API
 * key first, so an unknown key answers unauthorized before any body error.
 */
export async function validateRefundRequest(
  deps: CoreDeps,
  tx: Tx,
  creator: PresentedCredential | MerchantCaller,
  command: CreateRefundCommand,
): Promise<RefundRequest> {
  const presented = creator.kind !== "merchant";
  const key = presented ? requireIdempotencyKey(command.idempotencyKey) : command.idempotencyKey;
  const apiKey = presented ? readableApiKey(creator) : undefined;
  let input: RefundInput;
  try {
    if (key !== undefined) checkIdempotencyKeyShape(key);
    if (command.malformed !== undefined) fail("validation_error", command.malformed);
    input = parseOrFail(refundInputSchema, command.input);
    if (!isId("pay", input.payment_id)) throw unknownPayment();
  } catch (error) {
    if (apiKey && error instanceof DomainError) await resolveApiKey(deps, tx, apiKey);
    throw error;
  }
  const fingerprint = requestFingerprint("create_refund", input);
  const owner: RefundOwner = apiKey ? { kind: "api_key", key: apiKey } : { kind: "merchant", caller: creator as MerchantCaller };
  return { key, input, fingerprint, owner };
}
