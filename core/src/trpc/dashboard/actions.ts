import { z } from "zod";
import { links } from "../../operations/links.ts";
import { payments } from "../../operations/payments.ts";
import { payouts } from "../../operations/payouts.ts";
import { refunds } from "../../operations/refunds.ts";
import { asIs, sessionMutation } from "../operation-procedure.ts";

// The dashboard's changes to payments, links, bank accounts and payouts: the operations the REST API
// and the operator run, named here with the session as their caller (its merchant and mode; the
// least role each operation declares: admin). Bodies are the REST API's (same fields, validation
// and messages; amounts as strings of minor units); an optional idempotency_key lets the app retry
// a request it is unsure about without doing it twice. Each is audited by the runner.
//
// Records of procedures, not routers, so the dashboard's reads (dash-reads) join them in one
// router per area (index.ts).
const idempotencyKey = { idempotency_key: z.string().optional() };

/** The body as the REST API takes it, without the key, which is no field of it. */
function command<T extends { idempotency_key?: string | undefined }>(input: T) {
  const { idempotency_key, ...body } = input;
  return { idempotencyKey: idempotency_key, input: body };
}

export const paymentActions = {
  // POST /v1/refunds's body: {payment_id, amount?, reason?}; the Refund object.
  refund: sessionMutation(refunds.create, z.object({ payment_id: z.string(), ...idempotencyKey }).loose(), command, (result) => result.value),
  // POST /v1/payments/{id}/cancel; the Payment object.
  cancel: sessionMutation(
    payments.cancel,
    z.strictObject({ id: z.string(), ...idempotencyKey }),
    (input) => ({ id: input.id, idempotencyKey: input.idempotency_key }),
    (result) => result.value,
  ),
};

export const linkActions = {
  // POST /v1/payment_links's body (the operation refuses unknown fields); the link object.
  create: sessionMutation(links.create, z.object(idempotencyKey).loose(), command, (result) => result.value),
  deactivate: sessionMutation(links.deactivate, z.strictObject({ id: z.string() }), (input) => input.id, asIs),
};

export const bankAccountActions = {
  // Replaces the active account of that currency in the session's mode; only the masked number comes back.
  add: sessionMutation(
    payouts.addBankAccount,
    z.strictObject({ currency: z.string(), account_number: z.string(), bank_name: z.string().optional(), holder_name: z.string().optional() }),
    (input) => ({ currency: input.currency, accountNumber: input.account_number, bankName: input.bank_name, holderName: input.holder_name }),
    asIs,
  ),
};

export const payoutActions = {
  // Pays out the available balance of one currency now (owners and admins); the payout as it ended.
  payNow: sessionMutation(payouts.payOutNow, z.strictObject({ currency: z.string() }), asIs, asIs),
};
