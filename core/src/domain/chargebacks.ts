import { db } from "../db/orm.ts";
import type { OperatorCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { newId } from "./ids.ts";
import { postLedger, type LedgerEntry } from "./ledger.ts";
import {
  openChargeback as openChargebackState,
  TRANSITIONS,
  winChargeback as winChargebackState,
  type PaymentStatus,
  type TransitionResult,
} from "./payment-states.ts";
import { transitionPayment } from "./payment-transitions.ts";
import { requireSandbox, requireSandboxPayment } from "./sandbox-only.ts";
import type { Changes, Tx } from "./unit-of-work.ts";

// Chargebacks (DESIGN §4): the processor reports a dispute on a captured payment (sandbox: `paytami
// simulate chargeback`, tRPC chargebacks.open/win). Every way in is by hand, so both operations
// refuse a live payment: a live dispute is the live processor's report, which has no way in yet. Opening one takes what is left of the payment after its refunds out of the
// merchant's available balance, the one movement allowed to take it below zero; winning it gives
// that back. The payment moves to `chargeback` and back through the state table.

/** The public Chargeback (spec 2.5), keys in contract order. The reason is internal and never shown. */
export interface ChargebackView {
  id: string;
  payment_id: string;
  amount: string;
  currency: string;
  status: "opened" | "won";
}

interface ChargebackRow {
  id: string;
  merchant_id: string;
  mode: string;
  payment_id: string;
  amount: string;
  currency: string;
}

const toChargebackView = (row: ChargebackRow, status: ChargebackView["status"]): ChargebackView => ({
  id: row.id,
  payment_id: row.payment_id,
  amount: String(row.amount),
  currency: row.currency,
  status,
});

function chargebackEntry(kind: "chargeback_opened" | "chargeback_won", row: ChargebackRow, at: Date): LedgerEntry {
  const amount = BigInt(row.amount);
  const sign = kind === "chargeback_opened" ? -1n : 1n;
  return {
    kind,
    merchantId: row.merchant_id,
    mode: row.mode,
    currency: row.currency,
    paymentId: row.payment_id,
    chargebackId: row.id,
    at,
    lines: [
      { account: "merchant_available", amount: sign * amount },
      { account: "platform_cash", amount: -sign * amount },
    ],
  };
}

/**
 * Opens a chargeback on a payment in a chargeable state (captured … available_to_merchant,
 * partially_refunded), for what its refunds left of it: the payment moves to `chargeback`, the
 * merchant's available balance is debited, and `chargeback.opened` is raised.
 */
export async function openChargeback(
  deps: CoreDeps,
  tx: Tx,
  _caller: OperatorCaller,
  { paymentId, reason }: { paymentId: string; reason?: string | undefined },
): Promise<Changes<ChargebackView>> {
  await requireSandboxPayment(tx, paymentId, "A chargeback by hand");
  // Locks the payment (so refunds and other chargebacks of it wait) and refuses a state that cannot be disputed.
  await transitionPayment(deps, tx, paymentId, [openChargebackState]);
  const trx = db(tx);
  const payment = await trx.selectFrom("payments").select(["merchant_id", "mode", "currency", "amount"]).where("id", "=", paymentId).executeTakeFirstOrThrow();
  const refunded = await trx
    .selectFrom("refunds")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>("amount"), eb.val("0")).as("total"))
    .where("payment_id", "=", paymentId)
    .executeTakeFirstOrThrow();
  const at = deps.now();
  const row: ChargebackRow = {
    id: newId("chb"),
    merchant_id: payment.merchant_id,
    mode: payment.mode,
    payment_id: paymentId,
    amount: (BigInt(payment.amount) - BigInt(refunded.total)).toString(),
    currency: payment.currency,
  };
  await trx
    .insertInto("chargebacks")
    .values({ ...row, status: "opened", reason: reason ?? null, opened_at: at, won_at: null, created_at: at, updated_at: at })
    .execute();
  await postLedger(tx, [chargebackEntry("chargeback_opened", row, at)]);
  const view = toChargebackView(row, "opened");
  return { value: view, events: [{ merchantId: row.merchant_id, mode: row.mode, type: "chargeback.opened", data: view, at }] };
}

type SettlementStamps = Record<"pending_settlement_at" | "settled_to_paytami_at" | "available_to_merchant_at", Date | null>;

const SETTLEMENT_STATES: readonly PaymentStatus[] = ["captured", "pending_settlement", "settled_to_paytami", "available_to_merchant"];

/** The settlement state the stamps say: settlement went on while the payment was disputed. */
function settledState(stamps: SettlementStamps): PaymentStatus {
  if (stamps.available_to_merchant_at) return "available_to_merchant";
  if (stamps.settled_to_paytami_at) return "settled_to_paytami";
  if (stamps.pending_settlement_at) return "pending_settlement";
  return "captured";
}

/**
 * Resolves a payment's open chargeback in the merchant's favour: the payment returns to the state
 * it had before (a settlement state as far as settlement has come since), the merchant's available
 * balance is credited back, and `chargeback.won` is raised.
 */
export async function winChargeback(deps: CoreDeps, tx: Tx, _caller: OperatorCaller, { paymentId }: { paymentId: string }): Promise<Changes<ChargebackView>> {
  const trx = db(tx);
  // Lock first, then read the stamps the restored state depends on.
  const stamps = await trx
    .selectFrom("payments")
    .select(["id", "mode", "status", "pending_settlement_at", "settled_to_paytami_at", "available_to_merchant_at"])
    .where("id", "=", paymentId)
    .forUpdate()
    .executeTakeFirst();
  if (!stamps) throw new DomainError("unknown_payment", "No such payment.");
  requireSandbox(stamps, "A chargeback by hand");
  const open = await trx
    .selectFrom("chargebacks")
    .select(["id", "merchant_id", "mode", "payment_id", "amount", "currency"])
    .where("payment_id", "=", paymentId)
    .where("status", "=", "opened")
    .forUpdate()
    .executeTakeFirst();
  if (stamps.status === "chargeback" && !open) {
    throw new DomainError(TRANSITIONS.winChargeback.rejectWith, "Cannot winChargeback this payment: it has no open chargeback.");
  }
  const restore = (state: Parameters<typeof winChargebackState>[0], at: Date): TransitionResult => {
    const result = winChargebackState(state, at);
    return SETTLEMENT_STATES.includes(result.status) ? { ...result, status: settledState(stamps) } : result;
  };
  // Refuses a payment not in `chargeback` with its state in the message.
  await transitionPayment(deps, tx, paymentId, [restore]);
  const at = deps.now();
  await trx.updateTable("chargebacks").set({ status: "won", won_at: at, updated_at: at }).where("id", "=", open!.id).execute();
  await postLedger(tx, [chargebackEntry("chargeback_won", open!, at)]);
  const view = toChargebackView(open!, "won");
  return { value: view, events: [{ merchantId: open!.merchant_id, mode: open!.mode, type: "chargeback.won", data: view, at }] };
}

/** `paytami simulate chargeback PAY_ID open|win`: the processor's report, made by hand (operators only). */
export function simulateChargeback(
  deps: CoreDeps,
  tx: Tx,
  caller: OperatorCaller,
  { paymentId, action }: { paymentId: string; action: string },
): Promise<Changes<ChargebackView>> {
  if (action === "open") return openChargeback(deps, tx, caller, { paymentId, reason: "simulated" });
  if (action === "win") return winChargeback(deps, tx, caller, { paymentId });
  throw new DomainError("validation_error", "action must be open or win.");
}
