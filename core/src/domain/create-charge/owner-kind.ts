import type { QueryCreator, SelectQueryBuilder } from "kysely";
import type { DB } from "../../db/orm.ts";
import { PreparedStatement, statementBuilder } from "../../db/prepared.ts";
import { batchCreationStatement, type BatchRow, type BatchValues } from "./batch-statement.ts";
import { creationStatement, type ChargeOwnerRow, type CreationRow, type CreationValues } from "./creation-statement.ts";

/**
 * A kind of charge owner: one SELECT yielding at most one ChargeOwnerRow from
 * its own values, used as the first CTE of the creation statement (so
 * resolving the caller costs no extra round trip) and on its own on the slow
 * path. An API key, a merchant session, and next a payment link (which adds its
 * own row lock and scopes idempotency to the link) each define one (owners.ts). Each kind's
 * statements are built and compiled once (see PreparedStatement), so `select`
 * must pass its values through untouched.
 */
export class OwnerKind<V extends Record<string, unknown>> {
  readonly select: (qc: QueryCreator<DB>, values: V) => SelectQueryBuilder<DB, keyof DB, ChargeOwnerRow>;
  #lookup: PreparedStatement<V, ChargeOwnerRow> | undefined;
  /** The PostgreSQL type of each of V's values (the batched statement binds them as arrays). */
  readonly columns: Record<keyof V & string, string>;
  #creation: PreparedStatement<V & CreationValues, CreationRow> | undefined;
  #batchCreation: PreparedStatement<BatchValues, BatchRow> | undefined;

  constructor(select: OwnerKind<V>["select"], columns: Record<keyof V & string, string>) {
    this.select = select;
    this.columns = columns;
  }

  /** The owner alone (the slow path, to report errors in order). */
  get lookup(): PreparedStatement<V, ChargeOwnerRow> {
    return (this.#lookup ??= new PreparedStatement((v: V) => this.select(statementBuilder, v)));
  }

  get creation(): PreparedStatement<V & CreationValues, CreationRow> {
    return (this.#creation ??= new PreparedStatement((v: V & CreationValues) => creationStatement(this, v)));
  }

  /** The creation statement over arrays, for a batch of requests (group commit: batch.ts). */
  get batchCreation(): PreparedStatement<BatchValues, BatchRow> {
    return (this.#batchCreation ??= batchCreationStatement(this, this.columns));
  }
}

/** An owner kind with the values of one request. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a charge owner of any kind: each kind's values type is its own, and OwnerKind is invariant in it
export interface ChargeOwner<V extends Record<string, unknown> = any> {
  kind: OwnerKind<V>;
  values: V;
  /** Names this owner in the process's policy hints (never a secret: a key's digest, a merchant id). */
  hint: string;
}
