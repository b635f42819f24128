import { modeCodec } from "../../../proto/enums.ts";
import type { LedgerServiceServer } from "../../../proto/gen/paytami/v1/ledger.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { verifyLedger } from "../domain/ledger-verify.ts";
import { getBalances, getPaymentLedger } from "../domain/ledger-views.ts";
import { withoutTransaction } from "../domain/unit-of-work.ts";
import { legacyActingMerchant as actingMerchant } from "./caller.ts";
import { unary, type CallContext } from "./unary.ts";

/** The ledger for operators: verify, a merchant's balances, a payment's transactions. */
export function ledgerService(deps: CoreDeps): LedgerServiceServer {
  const handle = <Req, Res>(method: string, fn: (request: Req, context: CallContext) => Promise<Res>) => unary<Req, Res>(deps, method, fn);
  return {
    verifyLedger: handle("VerifyLedger", async (_request, ctx) => {
      const result = await withoutTransaction(deps, (tx) => verifyLedger(deps, tx, ctx.operator));
      return { ok: result.ok, checked: result.checked, violations: result.ok ? [] : result.violations };
    }),
    // The operator (actingMerchant refuses any other caller) acting for the merchant and mode the request names.
    getBalances: handle("GetBalances", async (request, ctx) => {
      const caller = actingMerchant(ctx, request);
      const view = await withoutTransaction(deps, (tx) => getBalances(deps, tx, caller));
      return { merchant_id: view.merchant_id, mode: modeCodec.fromWire(view.mode), balances: view.balances };
    }),
    listPaymentLedger: handle("ListPaymentLedger", async (request, ctx) =>
      withoutTransaction(deps, (tx) => getPaymentLedger(deps, tx, ctx.operator, request.payment_id))),
  };
}
