import { z } from "zod";
import { ledger } from "../../operations/ledger.ts";
import { noInput } from "../../operations/index.ts";
import { payouts } from "../../operations/payouts.ts";
import { PAGE, pageQuery } from "../inputs.ts";
import { asIs, NO_INPUT, sessionQuery } from "../operation-procedure.ts";

/** dashboard.balances.show(): pending, available and in transit per currency (minor units, signed), as `balances.get` answers an operator. */
export const balanceReads = {
  show: sessionQuery(ledger.balances, NO_INPUT, noInput, asIs),
};

/** dashboard.payouts.list / .get: the session's merchant-and-mode's payouts with their timestamps and failure reasons. */
export const payoutReads = {
  list: sessionQuery(payouts.list, z.strictObject(PAGE), pageQuery, asIs),
  get: sessionQuery(payouts.get, z.strictObject({ id: z.string() }), (input) => input.id, asIs),
};

/** dashboard.bankAccounts.list(): the session's merchant-and-mode's accounts, masked numbers only. */
export const bankAccountReads = {
  // The session's merchant and mode are the operation's owner; the input names neither.
  list: sessionQuery(
    payouts.listBankAccounts,
    NO_INPUT,
    () => ({}),
    (data) => ({ data }),
  ),
};
