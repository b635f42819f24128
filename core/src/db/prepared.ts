import { CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Compilable, type QueryResult } from "kysely";
import { nameStatement } from "./named-statements.ts";
import type { DB, Db } from "./orm.ts";

/** Builds statements for PreparedStatement; never executes anything itself. */
export const statementBuilder = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/**
 * A statement written with the typed query builder, built and compiled once,
 * then run with new values. Building and compiling a large statement (payment
 * creation: four CTEs) cost ~150 µs of CPU per request, more than the rest of
 * the request's work in the core.
 *
 * `build` receives stand-ins for its values and must only pass them through as
 * values (never compute with them): each stand-in becomes one bound parameter,
 * and `run` binds the real value in its place.
 */
export class PreparedStatement<Values extends Record<string, unknown>, Row> {
  readonly #sql: string;
  readonly #slots: (keyof Values & string)[];

  constructor(build: (values: Values) => Compilable<Row>) {
    const standIn = (name: string) => `\u0000slot:${name}\u0000`;
    const values = new Proxy({}, { get: (_, name) => standIn(String(name)) }) as Values;
    const compiled = build(values).compile();
    this.#sql = compiled.sql;
    nameStatement(this.#sql);
    this.#slots = compiled.parameters.map((parameter) => {
      // eslint-disable-next-line no-control-regex -- the stand-ins are NUL-delimited so no real value can look like one
      const match = typeof parameter === "string" ? /^\u0000slot:(.+)\u0000$/.exec(parameter) : null;
      if (!match) throw new Error(`PreparedStatement: a parameter is not one of the values (${String(parameter)}); pass every value through \`values\``);
      return match[1] as keyof Values & string;
    });
  }

  run(db: Db, values: Values): Promise<QueryResult<Row>> {
    return db.executeQuery<Row>(
      CompiledQuery.raw(
        this.#sql,
        this.#slots.map((slot) => values[slot]),
      ),
    );
  }
}
