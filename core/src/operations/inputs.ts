// Input shapes several operations share. The runner checks only the shape; each operation validates
// the meaning in its own order (a body's fields, a limit's range, an id's form) with its own messages,
// so nothing here is stricter than the operation it feeds.
import { z } from "zod";

/** An id, checked for form by the operation (a malformed id answers like an unknown one). */
export const anId = z.string();

/** Any number, NaN included: the operation says which it accepts, and how it refuses the rest. */
export const aNumber = z.custom<number>((value) => typeof value === "number");

/** A page of a list: `limit` and the cursor (each operation's parseLimit says what is allowed). */
export const pageQuery = {
  limit: aNumber.optional(),
  starting_after: z.string().optional(),
  /** Why the transport could not read the query, if it could not. */
  malformed: z.string().optional(),
};

/** An operation that takes no input. */
export const noInput = z.undefined();

/** A request that creates something once per Idempotency-Key: the key, the body as sent, or why it was unreadable. */
export interface IdempotentCommand {
  idempotencyKey?: string | undefined;
  /** The body as the caller sent it (names of the public API); validated by the operation. */
  input: unknown;
  malformed?: string | undefined;
}

const idempotentFields = { idempotencyKey: z.string().optional(), input: z.unknown(), malformed: z.string().optional() };

/**
 * An idempotent command, with `extra` fields besides. (z.unknown() reads as an optional key; the
 * transport always passes the body, undefined included, hence the type given here.)
 */
export function idempotentCommandWith<T extends IdempotentCommand>(extra: z.ZodRawShape): z.ZodType<T> {
  return z.strictObject({ ...idempotentFields, ...extra }) as unknown as z.ZodType<T>;
}

export const idempotentCommand = idempotentCommandWith<IdempotentCommand>({});
