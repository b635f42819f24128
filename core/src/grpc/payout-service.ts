import { modeCodec } from "../../../proto/enums.ts";
import type { Payout, PayoutServiceServer } from "../../../proto/gen/paytami/v1/payout.ts";
import { addBankAccount, listBankAccounts } from "../domain/bank-accounts.ts";
import { simulateChargeback } from "../domain/chargebacks.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { getPayout, listPayouts, payOutNow, type PayoutView } from "../domain/payouts.ts";
import { inTransaction, withoutTransaction } from "../domain/unit-of-work.ts";
import { unary, type CallContext } from "./unary.ts";

export function toPayoutMessage(view: PayoutView): Payout {
  return {
    ...view,
    processing_at: view.processing_at ?? undefined,
    sent_to_bank_at: view.sent_to_bank_at ?? undefined,
    completed_at: view.completed_at ?? undefined,
    failed_at: view.failed_at ?? undefined,
    canceled_at: view.canceled_at ?? undefined,
    failure_reason: view.failure_reason ?? undefined,
  };
}

const modeText = (mode: number) => modeCodec.requestText(mode);

export function payoutService(deps: CoreDeps): PayoutServiceServer {
  const handle = <Req, Res>(method: string, fn: (request: Req, context: CallContext) => Promise<Res>) => unary<Req, Res>(deps, method, fn);
  return {
    simulateChargeback: handle("SimulateChargeback", async (request, ctx) => ({
      chargeback: await inTransaction(deps, (tx) => simulateChargeback(deps, tx, ctx.operator, request.payment_id, request.action)),
    })),
    addBankAccount: handle("AddBankAccount", async (request, ctx) => ({
      bank_account: await inTransaction(deps, (tx) => addBankAccount(deps, tx, ctx.operator, {
        merchantId: request.merchant_id,
        mode: modeText(request.mode),
        currency: request.currency,
        accountNumber: request.account_number,
        bankName: request.bank_name,
        holderName: request.holder_name,
      })),
    })),
    listBankAccounts: handle("ListBankAccounts", async (request, ctx) => ({
      data: await withoutTransaction(deps, (tx) =>
        listBankAccounts(deps, tx, ctx.operator, request.merchant_id, request.mode === undefined ? undefined : modeText(request.mode))),
    })),
    requestPayout: handle("RequestPayout", async (request, ctx) => ({
      payout: toPayoutMessage(await payOutNow(deps, ctx.operator, { merchantId: request.merchant_id, mode: modeText(request.mode), currency: request.currency })),
    })),
    getPayout: handle("GetPayout", async (request, ctx) => ({
      payout: toPayoutMessage(await withoutTransaction(deps, (tx) => getPayout(deps, tx, ctx.operator, request.id))),
    })),
    listPayouts: handle("ListPayouts", async (request, ctx) => {
      const page = await withoutTransaction(deps, (tx) => listPayouts(deps, tx, ctx.operator, {
        merchantId: request.merchant_id,
        mode: modeText(request.mode),
        limit: request.limit,
        starting_after: request.starting_after,
      }));
      return { data: page.data.map(toPayoutMessage), has_more: page.has_more };
    }),
  };
}
