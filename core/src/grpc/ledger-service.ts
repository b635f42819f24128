import { modeCodec } from "../../../proto/enums.ts";
import { noInput } from "../operations/index.ts";
import { LedgerServiceService, type LedgerServiceServer } from "../../../proto/gen/paytami/v1/ledger.ts";
import type { CoreDeps } from "../domain/deps.ts";
import type { LedgerVerification } from "../domain/ledger-verify.ts";
import type { BalancesView } from "../domain/ledger-views.ts";
import { ledger } from "../operations/ledger.ts";
import { actingForOrApiKey, operator } from "./caller.ts";
import { call, serviceOf } from "./method-table.ts";

const verified = (result: LedgerVerification) => ({ ok: result.ok, checked: result.checked, violations: result.ok ? [] : result.violations });
const balances = (view: BalancesView) => ({ merchant_id: view.merchant_id, mode: modeCodec.fromWire(view.mode), balances: view.balances });

/** The ledger for operators: verify, a merchant's balances, a payment's transactions. */
export function ledgerService(deps: CoreDeps): LedgerServiceServer {
  return serviceOf(deps, LedgerServiceService, {
    verifyLedger: call(ledger.verify, operator, noInput, verified),
    // The operator acting for the merchant and mode the request names; naming none, the API key's (GET /v1/balance).
    getBalances: call(
      ledger.balances,
      actingForOrApiKey((request) => (request.merchant_id === undefined ? undefined : request)),
      noInput,
      balances,
    ),
    listPaymentLedger: call(
      ledger.paymentLedger,
      operator,
      (request) => request.payment_id,
      (view) => view,
    ),
  });
}
