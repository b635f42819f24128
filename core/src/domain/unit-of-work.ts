import type { EntityManager } from "../db/orm.ts";
import type { CoreDeps } from "./deps.ts";
import type { DomainError } from "./errors.ts";
import { enqueueEvents, type RaisedEvent } from "./outbox.ts";

/**
 * The unit of work an operation runs in: a forked EntityManager, inside a
 * database transaction when the caller opened one with `inTransaction`. Domain
 * operations take it as a parameter instead of forking their own, so several
 * of them compose into one atomic change (a refund: the refund row, its ledger
 * lines, the payment's transition and their events).
 */
export type Tx = EntityManager;

/** What a state-changing operation returns: its result and the events it raised, not yet recorded. */
export interface Changes<T> {
  value: T;
  events: RaisedEvent[];
  /**
   * An answer to give only after the changes are committed: e.g. checkout
   * expires an overdue payment and then refuses it, and the expiry must stay.
   */
  refusal?: DomainError;
}

/** A change that raises no event. */
export const withoutEvents = <T>(value: T): Changes<T> => ({ value, events: [] });

/**
 * Runs `work` in one transaction and records the events it raised in the
 * outbox in that same transaction, so an event exists exactly when its change
 * committed.
 */
export async function inTransaction<T>(deps: Pick<CoreDeps, "orm">, work: (tx: Tx) => Promise<Changes<T>>): Promise<T> {
  const { value, refusal } = await deps.orm.em.fork().transactional(async (tx) => {
    const changes = await work(tx);
    await enqueueEvents(tx, changes.events);
    return changes;
  });
  if (refusal) throw refusal;
  return value;
}

/** A unit of work without a transaction: reads, and single statements that are atomic on their own. */
export function withoutTransaction<T>(deps: Pick<CoreDeps, "orm">, work: (tx: Tx) => Promise<T>): Promise<T> {
  return work(deps.orm.em.fork());
}
