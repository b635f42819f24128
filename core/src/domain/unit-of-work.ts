import type { EntityManager } from "../db/orm.ts";
import type { CoreDeps } from "./deps.ts";
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
}

/** A change that raises no event. */
export const withoutEvents = <T>(value: T): Changes<T> => ({ value, events: [] });

/**
 * Runs `work` in one transaction and records the events it raised in the
 * outbox in that same transaction, so an event exists exactly when its change
 * committed.
 */
export function inTransaction<T>(deps: Pick<CoreDeps, "orm">, work: (tx: Tx) => Promise<Changes<T>>): Promise<T> {
  return atomically(unitOfWork(deps), work);
}

/**
 * Runs `work` atomically within `tx`, recording its events there: in a
 * transaction of its own when `tx` is none, else in a savepoint of the
 * caller's. For an operation that changes state only now and then (checkout
 * expiring an overdue payment; one row of a claimed batch), so the rest of it
 * needs no transaction, or a failure undoes only that part.
 */
export function atomically<T>(tx: Tx, work: (tx: Tx) => Promise<Changes<T>>): Promise<T> {
  return tx.transactional(async (inner) => {
    const { value, events } = await work(inner);
    await enqueueEvents(inner, events);
    return value;
  });
}

/** A unit of work without a transaction: reads, and single statements that are atomic on their own. */
export function withoutTransaction<T>(deps: Pick<CoreDeps, "orm">, work: (tx: Tx) => Promise<T>): Promise<T> {
  return work(unitOfWork(deps));
}

/**
 * A new unit of work, outside any transaction: what the operation runner hands an operation (which
 * opens a transaction in it, or none, as the operation declares). Operations never make their own.
 */
export function unitOfWork(deps: Pick<CoreDeps, "orm">): Tx {
  return deps.orm.em.fork();
}
