import { sql, type RawBuilder } from "kysely";
import { db } from "../../db/orm.ts";
import type { Tx } from "../unit-of-work.ts";

// Grouping a million lines per transaction or per payment costs several scans (hash tables of
// hundreds of thousands of groups), so the passes compare those equalities as fingerprints: sums of
// seeded hashes, with a fresh random seed each run. Equal sets give equal fingerprints; a difference
// goes unnoticed with probability about 2^-31 (amount sums) or 2^-64 (sets of ids).
//
// Amount sums are fingerprinted as Σ amount·w, summed exactly (int8 products, a 128-bit sum), with w
// the top 32 bits of a seeded 64-bit hash made odd: never zero, so one transaction that does not sum
// to zero always changes the fingerprint, whatever the amount, and several cancel out with
// probability 2^-31 at most (at most one of the 2^31 odd values of one w does it). An amount of 2^32
// or more can overflow its product: that statement then fails, and the exact queries decide instead.

/** PostgreSQL's SQLSTATE for an int8 product out of range (a fingerprint term of an amount of 2^32 or more). */
const NUMERIC_VALUE_OUT_OF_RANGE = "22003";

/** The odd seeded weight of `column` (SQL text: the seed is part of the statement, not a parameter). */
export const weight = (seed: bigint, column: string, salt: number) => `((hashint8extended(${column}, ${seed + BigInt(salt)}) >> 32) | 1)`;

/** The seeded 64-bit hash of a text id `column`. */
export const idHash = (seed: bigint, column: string, salt: number) => sql.raw(`hashtextextended(${column}, ${seed + BigInt(salt)})`);

/**
 * The first row of a fingerprint query, or null when one of its int8 products overflowed: the
 * statement runs under a savepoint so the transaction (and its snapshot) goes on without it.
 */
export async function unlessOverflow<R>(tx: Tx, query: RawBuilder<R>): Promise<R | null> {
  const q = db(tx);
  // Raw: savepoints of the ORM's transaction have no form in the query builder.
  await sql`savepoint ledger_fingerprint`.execute(q);
  try {
    const row = (await query.execute(q)).rows[0]!;
    await sql`release savepoint ledger_fingerprint`.execute(q);
    return row;
  } catch (error) {
    if (!isOverflow(error)) throw error;
    await sql`rollback to savepoint ledger_fingerprint`.execute(q);
    return null;
  }
}

const isOverflow = (error: unknown): boolean =>
  typeof error === "object" &&
  error !== null &&
  ((error as { code?: unknown }).code === NUMERIC_VALUE_OUT_OF_RANGE || isOverflow((error as { cause?: unknown }).cause));
