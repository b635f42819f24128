// An operator's procedure is checked when its router is built (at start-up): its caller must be
// one the operation declares, and the operation one of OPERATIONS. A read is a query, anything
// else a mutation, and the compiler holds procedures to that.
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { defineOperation } from "../domain/operation.ts";
import { payments } from "../operations/payments.ts";
import { OPERATOR } from "../domain/caller.ts";
import { ledger } from "../operations/ledger.ts";
import { refunds } from "../operations/refunds.ts";
import { ACTING_FOR, actingFor, asIs, mutation, query, sessionQuery, type ProcedureCaller } from "./operation-procedure.ts";

const byId = z.strictObject({ ...ACTING_FOR, id: z.string() });

describe("building a procedure", () => {
  test("a procedure for an operation that declares its caller builds", () => {
    expect(() => query(refunds.get, byId, actingFor, (input) => input.id, asIs)).not.toThrow();
  });

  test("a caller the operation does not declare stops it", () => {
    const asSession: ProcedureCaller<z.output<typeof byId>, typeof OPERATOR> = { kinds: ["session"], resolve: () => OPERATOR };
    expect(() => query(ledger.verify, byId, asSession, () => undefined, asIs)).toThrow(
      "tRPC: operation verify_ledger does not declare the caller(s) session its procedure yields",
    );
  });

  test("a session procedure names only an operation that declares sessions (with their least role)", () => {
    expect(() => sessionQuery(refunds.get, z.strictObject({ id: z.string() }), (input) => input.id, asIs)).not.toThrow();
    // @ts-expect-error verify_ledger's run takes the operator, never a session
    expect(() => sessionQuery(ledger.verify, z.unknown(), () => undefined, asIs)).toThrow(
      "tRPC: operation verify_ledger does not declare the caller(s) session",
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
