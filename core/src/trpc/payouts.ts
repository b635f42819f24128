import { z } from "zod";
import { payouts } from "../operations/payouts.ts";
import { router } from "./init.ts";
import { pageQuery } from "./inputs.ts";
import { ACTING_FOR, actingFor, asIs, mutation, operator, query } from "./operation-procedure.ts";

// Payouts, bank accounts and (the processor's, sandbox-made) chargebacks, for operators: an
// operator acts for the merchant and mode named in the input.
const mode = z.enum(["test", "live"]);
const listInput = z.strictObject({ ...ACTING_FOR, limit: z.number().int().optional(), starting_after: z.string().optional() });
const requestInput = z.strictObject({ merchant_id: z.string(), mode: mode.default("test"), currency: z.string() });
const accountInput = z.strictObject({
  merchant_id: z.string(),
  mode,
  currency: z.string(),
  account_number: z.string(),
  bank_name: z.string().optional(),
  holder_name: z.string().optional(),
});
const accountsInput = z.strictObject({ merchant_id: z.string(), mode: mode.optional() });

const account = (input: z.output<typeof accountInput>) => ({
  merchantId: input.merchant_id,
  mode: input.mode,
  currency: input.currency,
  accountNumber: input.account_number,
  bankName: input.bank_name,
  holderName: input.holder_name,
});

export const payoutsRouter = router({
  list: query(payouts.list, listInput, actingFor, pageQuery, asIs),
  get: query(payouts.get, z.strictObject({ id: z.string() }), operator, (input) => input.id, asIs),
  // Pays out the available balance of one currency now; the payout as it ended.
  request: mutation(payouts.payOutNow, requestInput, actingFor, (input) => ({ currency: input.currency }), asIs),
});

export const bankAccountsRouter = router({
  add: mutation(payouts.addBankAccount, accountInput, operator, account, asIs),
  list: query(
    payouts.listBankAccounts,
    accountsInput,
    operator,
    (input) => ({ merchantId: input.merchant_id, mode: input.mode }),
    (data) => ({ data }),
  ),
});

export const chargebacksRouter = router({
  open: mutation(
    payouts.openChargeback,
    z.strictObject({ payment_id: z.string(), reason: z.string().max(500).optional() }),
    operator,
    (input) => ({ paymentId: input.payment_id, reason: input.reason }),
    asIs,
  ),
  win: mutation(payouts.winChargeback, z.strictObject({ payment_id: z.string() }), operator, (input) => ({ paymentId: input.payment_id }), asIs),
});
