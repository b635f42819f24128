// A PreparedStatement reaches PostgreSQL as a named statement, parsed once per connection, and
// still binds each run's own values; anything else stays unnamed.
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { nameStatement } from "./named-statements.ts";
import { db, type Db } from "./orm.ts";
import { PreparedStatement, statementBuilder } from "./prepared.ts";
import { databasePoolOptions } from "./primary.ts";

let database: MigratedDatabase | undefined;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => new Date() });
});

afterAll(() => database?.close());

const NUMBERED = new PreparedStatement((v: { n: number }) => statementBuilder.selectNoFrom(sql<number>`${v.n}::int + 1`.as("next")));

/** What the connection has prepared (statements made by the protocol's Parse have from_sql false). */
const preparedOn = async (connection: Db) =>
  (await sql<{ name: string; statement: string; from_sql: boolean }>`select name, statement, from_sql from pg_prepared_statements`.execute(connection)).rows;

/** `work` on one pooled connection, so what it leaves prepared is visible afterwards. */
const onOneConnection = <T>(work: (connection: Db) => Promise<T>) => db(database!.orm.em.fork()).connection().execute(work);

it("sends a PreparedStatement as one named statement per connection, binding each run's values", async () => {
  await onOneConnection(async (connection) => {
    const first = await NUMBERED.run(connection, { n: 1 });
    const second = await NUMBERED.run(connection, { n: 41 });
    expect([first.rows[0]?.next, second.rows[0]?.next]).toEqual([2, 42]);
    const named = (await preparedOn(connection)).filter((row) => row.statement.includes("::int + 1"));
    expect(named).toHaveLength(1);
    expect(named[0]).toEqual({ name: nameStatement(named[0]!.statement), statement: named[0]!.statement, from_sql: false });
  });
});

it("leaves a statement built per call unnamed", async () => {
  await onOneConnection(async (connection) => {
    await connection.selectFrom("payments").select("id").where("id", "=", "pay_unnamed").execute();
    expect((await preparedOn(connection)).filter((row) => row.statement.includes('from "payments"'))).toEqual([]);
  });
});

it("names a registered text sent through pg's Pool.query too (which hands its client a callback)", async () => {
  const text = "select $1::int * 2 as doubled";
  nameStatement(text);
  // One connection, so what it prepared is visible on it afterwards.
  const pool = new pg.Pool({ ...databasePoolOptions(database!.deps.config.databaseUrl, 5_000), max: 1 });
  // pool.end() resolves before its client's connection has closed; if afterAll drops the database
  // first, the server's "terminating connection" reaches the pool, which throws it with no listener.
  pool.on("error", () => undefined);
  try {
    expect((await pool.query<{ doubled: number }>(text, [21])).rows[0]?.doubled).toBe(42);
    const prepared = await pool.query<{ name: string }>("select name from pg_prepared_statements where statement = $1", [text]);
    expect(prepared.rows).toEqual([{ name: nameStatement(text) }]);
  } finally {
    await pool.end();
  }
});
