import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import { describe, expect, test } from "vitest";
import type { DB } from "./orm.ts";
import { PreparedStatement } from "./prepared.ts";

const plain = new Kysely<DB>({
  dialect: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (k) => new PostgresIntrospector(k), createQueryCompiler: () => new PostgresQueryCompiler() },
});

describe("PreparedStatement", () => {
  test("refuses a statement that computed with a value instead of passing it through", () => {
    expect(() => new PreparedStatement((v: { id: string }) => plain.selectFrom("payments").select("id").where("id", "=", `${v.id}-suffix`)))
      .toThrow(/not one of the values/);
    expect(() => new PreparedStatement((v: { id: string }) => plain.selectFrom("payments").select("id").where("id", "=", v.id).limit(5)))
      .toThrow(/not one of the values/);
  });

  test("accepts a statement whose every parameter is a value", () => {
    expect(() => new PreparedStatement((v: { id: string; n: number }) => plain.selectFrom("payments").select("id").where("id", "=", v.id).limit(v.n))).not.toThrow();
  });
});
