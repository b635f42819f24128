// An operator's procedure is checked when its router is built (at start-up): its caller must be
// one the operation declares, and the operation one of OPERATIONS. A read is a query, anything
// else a mutation, and the compiler holds procedures to that.
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { defineOperation } from "../domain/operation.ts";
import { payments } from "../operations/payments.ts";
import { refunds } from "../operations/refunds.ts";
import { ACTING_FOR, actingFor, asIs, mutation, query, type ProcedureCaller } from "./operation-procedure.ts";

const byId = z.strictObject({ ...ACTING_FOR, id: z.string() });

describe("building a procedure", () => {
  test("a procedure for an operation that declares its caller builds", () => {
    expect(() => query(refunds.get, byId, actingFor, (input) => input.id, asIs)).not.toThrow();
  });

  test("a caller the operation does not declare stops it", () => {
    const asSession: ProcedureCaller<z.output<typeof byId>, ReturnType<typeof actingFor.resolve>> = {
      kinds: ["session"],
      resolve: (ctx, input) => actingFor.resolve(ctx, input),
    };
    expect(() => query(refunds.get, byId, asSession, (input) => input.id, asIs)).toThrow(
      "tRPC: operation get_refund does not declare the caller(s) session its procedure yields",
    );
  });

  test("an operation not in OPERATIONS stops it", () => {
    const stray = defineOperation({ name: "stray_payment", callers: ["merchant", "operator"], input: z.string(), transaction: "read", run: payments.get.run });
    expect(() => query(stray, byId, actingFor, (input) => input.id, asIs)).toThrow("tRPC: operation stray_payment is not in OPERATIONS");
  });

  test("a read is a query and a change a mutation", () => {
    // @ts-expect-error cancel_payment changes state: it is no query
    expect(() => query(payments.cancel, byId, actingFor, (input) => ({ id: input.id }), asIs)).not.toThrow();
    // @ts-expect-error get_payment reads: it is no mutation
    expect(() => mutation(payments.get, byId, actingFor, (input) => input.id, asIs)).not.toThrow();
  });
});
