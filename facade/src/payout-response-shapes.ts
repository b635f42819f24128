import { z } from "zod";
import type { ChargebackJson, PayoutJson } from "../../proto/payout-json.ts";
import { currency, money, publicId, timestamp } from "./response-shapes.ts";

// The objects of GET /v1/balance, /v1/payouts and /v1/chargebacks as zod shapes, beside
// response-shapes.ts (which they build on) in its conventions: held to their renderers' types,
// `.meta({ id })` for a named component.

const stamp = (description: string) => timestamp.nullable().meta({ description });

export const payoutShape = z
  .strictObject({
    id: publicId("payout", "The payout's public id."),
    currency,
    amount: money,
    status: z
      .enum(["requested", "processing", "sent_to_bank", "completed", "failed", "canceled"])
      .meta({ description: "requested → processing → sent_to_bank → completed, or failed (the money returns to the available balance)." }),
    bank_account_id: publicId("ba", "The bank account paid to."),
    bank_account_masked: z.string().meta({ description: "The account number's last four digits, masked.", examples: ["****6789"] }),
    requested_at: timestamp,
    processing_at: stamp("When the bank took it up; null before."),
    sent_to_bank_at: stamp("When it was sent to the bank; null before."),
    completed_at: stamp("When it landed; null unless completed."),
    failed_at: stamp("When it failed; null unless failed."),
    canceled_at: stamp("When it was canceled; null unless canceled."),
    failure_reason: z
      .string()
      .nullable()
      .meta({ description: "Why it failed (e.g. account_closed); null otherwise.", examples: ["account_closed"] }),
  })
  .meta({ id: "Payout", description: "A transfer of the available balance to the merchant's bank account (spec 2.6)." }) satisfies z.ZodType<PayoutJson>;

export const chargebackShape = z
  .strictObject({
    id: publicId("chb", "The chargeback's public id."),
    payment_id: publicId("pay", "The disputed payment."),
    amount: money,
    currency,
    status: z.enum(["opened", "won"]).meta({ description: "opened: the amount is held from the available balance; won: it came back." }),
  })
  .meta({
    id: "Chargeback",
    description: "A payment the customer disputed with their bank (spec 2.5). The reason is not part of the interface.",
  }) satisfies z.ZodType<ChargebackJson>;

/** A balance may be negative: refunds or a chargeback beyond what was there leave the merchant owing. */
const SIGNED_MONEY_PATTERN = "^-?(0|[1-9][0-9]{0,15})$";
const signedMoney = (description: string) =>
  z
    .string()
    .regex(new RegExp(SIGNED_MONEY_PATTERN))
    .meta({ description, examples: ["94500"] });

export const balanceShape = z
  .strictObject({
    mode: z.enum(["test", "live"]).meta({ description: "The key's mode: the balances are of this mode only." }),
    balances: z.array(
      z
        .strictObject({
          currency,
          pending: signedMoney("Captured but not yet settled to Paytami: net of fees, minus refunds taken from it."),
          available: signedMoney("Settled and released: what the next payout sends to the bank."),
          in_transit: signedMoney("In payouts on their way to the bank."),
        })
        .meta({ id: "BalanceAmounts", description: "One currency's balances, in its minor unit, as sums of the ledger." }),
    ),
  })
  .meta({ id: "Balance", description: "The merchant's balances in the key's mode, one entry per currency it accepts or holds money in." });
