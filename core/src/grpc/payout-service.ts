import { modeCodec } from "../../../proto/enums.ts";
import type { Mode } from "../../../proto/gen/paytami/v1/enums.ts";
import {
  PayoutServiceService,
  type AddBankAccountRequest,
  type ListChargebacksRequest,
  type ListPayoutsRequest,
  type PayoutActingFor,
  type Payout,
  type PayoutServiceServer,
} from "../../../proto/gen/paytami/v1/payout.ts";
import { nullAsAbsent } from "../../../proto/optional-fields.ts";
import type { CoreDeps } from "../domain/deps.ts";
import type { Page } from "../domain/keyset-page.ts";
import { payouts } from "../operations/payouts.ts";
import type { PayoutView } from "../domain/payouts.ts";
import { actingFor, actingForOrApiKey, managing, operator } from "./caller.ts";
import { call, serviceOf } from "./method-table.ts";
import { byId } from "./requests.ts";

export function toPayoutMessage(view: PayoutView): Payout {
  return nullAsAbsent(view);
}

/** The merchant and mode the request names: the operator acts for them. */
const owner = actingFor((request: { merchant_id: string; mode: Mode }) => request);
const chargebackInput = (request: { payment_id: string; action: string }) => ({ paymentId: request.payment_id, action: request.action });
const accountInput = (request: AddBankAccountRequest) => ({
  merchantId: request.merchant_id,
  mode: modeCodec.requestText(request.mode),
  currency: request.currency,
  accountNumber: request.account_number,
  bankName: request.bank_name,
  holderName: request.holder_name,
});
const accountsQuery = (request: { merchant_id: string; mode?: Mode | undefined }) => ({
  merchantId: request.merchant_id,
  mode: request.mode === undefined ? undefined : modeCodec.requestText(request.mode),
});
const pageOf = (request: ListPayoutsRequest | ListChargebacksRequest) => ({
  limit: request.limit,
  starting_after: request.starting_after,
  malformed: request.malformed_request,
});
const payoutPage = (page: Page<PayoutView>) => ({ data: page.data.map(toPayoutMessage), has_more: page.has_more });
const thePayout = (view: PayoutView) => ({ payout: toPayoutMessage(view) });
/** A list naming a merchant: the operator acting for it; naming none: the merchant of the API key (GET /v1/…). */
const listOwner = actingForOrApiKey((request: ListPayoutsRequest | ListChargebacksRequest) => (request.merchant_id === undefined ? undefined : request));
/** A get request's acting_for: unset, the API key; with no merchant, the operator on its own. */
const getter = managing((request: { acting_for?: PayoutActingFor | undefined }) => request.acting_for);

export function payoutService(deps: CoreDeps): PayoutServiceServer {
  return serviceOf(deps, PayoutServiceService, {
    simulateChargeback: call(payouts.simulateChargeback, operator, chargebackInput, (chargeback) => ({ chargeback })),
    addBankAccount: call(payouts.addBankAccount, operator, accountInput, (account) => ({ bank_account: account })),
    listBankAccounts: call(payouts.listBankAccounts, operator, accountsQuery, (data) => ({ data })),
    requestPayout: call(payouts.payOutNow, owner, (request) => ({ currency: request.currency }), thePayout),
    getPayout: call(payouts.get, getter, byId, thePayout),
    listPayouts: call(payouts.list, listOwner, pageOf, payoutPage),
    getChargeback: call(payouts.getChargeback, getter, byId, (chargeback) => ({ chargeback })),
    listChargebacks: call(payouts.listChargebacks, listOwner, pageOf, (page) => page),
  });
}
