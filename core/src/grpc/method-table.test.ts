// A gRPC service is a table checked twice: by the compiler (a missing method, a caller source whose
// callers the run cannot take) and when the service is built, at start-up (a caller kind the
// operation does not declare, an operation not in OPERATIONS).
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { RefundServiceService } from "../../../proto/gen/paytami/v1/refund.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { defineOperation } from "../domain/operation.ts";
import { refunds } from "../operations/refunds.ts";
import type { RefundView } from "../domain/refunds.ts";
import { createLogger } from "../../../proto/runtime/logger.ts";
import { actingForOrApiKey, customer, managing, processes } from "./caller.ts";
import { call, serviceOf, type MethodTable } from "./method-table.ts";
import { refundService, toRefundMessage } from "./refund-service.ts";
import { idempotentCommand } from "./requests.ts";

const token = (c: string) => c.repeat(32);
const deps = {
  log: createLogger("test"),
  config: { serviceTokens: { operator: token("o"), facade: token("f"), dispatcher: token("d") } },
} as unknown as CoreDeps;

const theRefund = (view: RefundView) => ({ refund: toRefundMessage(view) });
const refundTable = (): MethodTable<typeof RefundServiceService> => ({
  createRefund: call(
    refunds.create,
    actingForOrApiKey((request) => request.acting_for),
    idempotentCommand,
    ({ value, replayed }) => ({ refund: toRefundMessage(value), replayed }),
  ),
  getRefund: call(
    refunds.get,
    managing((request) => request.acting_for),
    (request) => request.id,
    theRefund,
  ),
  listRefunds: call(
    refunds.list,
    actingForOrApiKey((request) => request.acting_for),
    () => ({}),
    (page) => ({ data: page.data.map(toRefundMessage), has_more: page.has_more }),
  ),
});

describe("building a service from its table", () => {
  test("the service's own table builds, one handler per method", () => {
    expect(Object.keys(refundService(deps)).sort()).toEqual(Object.keys(RefundServiceService).sort());
    expect(Object.keys(serviceOf(deps, RefundServiceService, refundTable())).sort()).toEqual(Object.keys(RefundServiceService).sort());
  });

  test("a method whose caller the operation does not declare stops it", () => {
    const table: MethodTable<typeof RefundServiceService> = {
      ...refundTable(),
      getRefund: call(refunds.get, processes("dispatcher"), (request) => request.id, theRefund),
    };
    expect(() => serviceOf(deps, RefundServiceService, table)).toThrow(
      "/paytami.v1.RefundService/GetRefund: operation get_refund does not declare the caller(s) dispatcher this method yields",
    );
  });

  test("a method whose operation is not in OPERATIONS stops it", () => {
    const stray = defineOperation({ name: "stray_refund", callers: ["merchant", "operator"], input: z.string(), transaction: "read", run: refunds.get.run });
    const table: MethodTable<typeof RefundServiceService> = {
      ...refundTable(),
      getRefund: call(
        stray,
        managing((request) => request.acting_for),
        (request) => request.id,
        theRefund,
      ),
    };
    expect(() => serviceOf(deps, RefundServiceService, table)).toThrow("operation stray_refund is not in OPERATIONS");
  });

  test("a caller source whose callers the run cannot take does not compile", () => {
    // @ts-expect-error a customer's browser is no caller create_refund's run takes
    const wrong = call(refunds.create, customer, idempotentCommand, ({ value, replayed }) => ({ refund: toRefundMessage(value), replayed }));
    expect(wrong.kinds).toEqual(["public"]);
  });
});
