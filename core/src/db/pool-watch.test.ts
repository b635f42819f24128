import { describe, expect, it } from "vitest";
import { isConnectionLoss } from "./connection-loss.ts";
import { isPoolSaturated, PoolSaturatedError } from "./pool-watch.ts";

describe("isPoolSaturated", () => {
  it("finds the typed error however deep MikroORM or kysely wrapped it", () => {
    const saturated = new PoolSaturatedError(5_000);
    expect(isPoolSaturated(saturated)).toBe(true);
    expect(isPoolSaturated(new Error("query failed", { cause: new Error("driver", { cause: saturated }) }))).toBe(true);
  });

  it("is not pg-pool's bare message (only the watched pool's typed error counts), nor a lost connection", () => {
    expect(isPoolSaturated(new Error("timeout exceeded when trying to connect"))).toBe(false);
    expect(isPoolSaturated(Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" }))).toBe(false);
    expect(isPoolSaturated(undefined)).toBe(false);
  });

  it("is overload, not a lost connection: the runner does not run the operation again", () => {
    expect(isConnectionLoss(new PoolSaturatedError(5_000))).toBe(false);
  });
});
