import { describe, expect, test } from "vitest";
import { PreparedStatement, statementBuilder } from "./prepared.ts";

describe("PreparedStatement", () => {
  test("refuses a statement that computed with a value instead of passing it through", () => {
    expect(() => new PreparedStatement((v: { id: string }) => statementBuilder.selectFrom("payments").select("id").where("id", "=", `${v.id}-suffix`))).toThrow(
      /not one of the values/,
    );
    expect(() => new PreparedStatement((v: { id: string }) => statementBuilder.selectFrom("payments").select("id").where("id", "=", v.id).limit(5))).toThrow(
      /not one of the values/,
    );
  });

  test("accepts a statement whose every parameter is a value", () => {
    expect(
      () => new PreparedStatement((v: { id: string; n: number }) => statementBuilder.selectFrom("payments").select("id").where("id", "=", v.id).limit(v.n)),
    ).not.toThrow();
  });
});
