import type { BankOutcome, BankTransfer } from "../bank/bank.ts";
import { bankFor } from "../bank/bank-for.ts";
import type { Mode } from "../config.ts";
import { db } from "../db/orm.ts";
import { answerWithin } from "../processor/deadline.ts";
import { maskAccount } from "./bank-accounts.ts";
import type { MerchantCaller, OperatorCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { isId, newId } from "./ids.ts";
import { keysetPage, parseLimit, type Page, type PageQuery } from "./keyset-page.ts";
import { lockMerchantFunds, postLedger, type LedgerEntry } from "./ledger.ts";
import { atomically, withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";

// Payouts (spec 2.6, DESIGN §4): a merchant's available balance in one currency, swept to its
// active bank account of that currency, through requested → processing → sent_to_bank → completed
// | failed. Requesting takes the money out of available into in_transit under the merchant's funds
// lock, so two requests (two cores' sweeps, a sweep and an operator) never take the same money.
// The bank is asked outside any transaction; each step is a short transaction of its own,
// conditional on the step before, so a step done twice (a core died in between and the recovery
// job took over) changes nothing the second time.

/** The public Payout (spec 2.6), keys in contract order: events, gRPC, tRPC and the CLI show this. */
export interface PayoutView {
  id: string;
  currency: string;
  amount: string;
  status: string;
  bank_account_id: string;
  bank_account_masked: string;
  requested_at: string;
  processing_at: string | null;
  sent_to_bank_at: string | null;
  completed_at: string | null;
  failed_at: string | null;
  canceled_at: string | null;
  failure_reason: string | null;
}

type Stamp = Date | null;

interface PayoutRow {
  id: string;
  merchant_id: string;
  mode: string;
  currency: string;
  amount: string;
  status: string;
  bank_account_id: string;
  last4: string;
  requested_at: Date;
  processing_at: Stamp;
  sent_to_bank_at: Stamp;
  completed_at: Stamp;
  failed_at: Stamp;
  canceled_at: Stamp;
  failure_reason: string | null;
}

const iso = (at: Stamp): string | null => (at ? at.toISOString() : null);

export function toPayoutView(row: Omit<PayoutRow, "merchant_id" | "mode">): PayoutView {
  return {
    id: row.id,
    currency: row.currency,
    amount: String(row.amount),
    status: row.status,
    bank_account_id: row.bank_account_id,
    bank_account_masked: maskAccount(row.last4),
    requested_at: row.requested_at.toISOString(),
    processing_at: iso(row.processing_at),
    sent_to_bank_at: iso(row.sent_to_bank_at),
    completed_at: iso(row.completed_at),
    failed_at: iso(row.failed_at),
    canceled_at: iso(row.canceled_at),
    failure_reason: row.failure_reason,
  };
}

/** A select of payouts with their account's last four digits, for the view. */
function payouts(tx: Tx) {
  return db(tx)
    .selectFrom("payouts as p")
    .innerJoin("bank_accounts as b", "b.id", "p.bank_account_id")
    .select([
      "p.id",
      "p.merchant_id",
      "p.mode",
      "p.currency",
      "p.amount",
      "p.status",
      "p.bank_account_id",
      "b.last4",
      "p.requested_at",
      "p.processing_at",
      "p.sent_to_bank_at",
      "p.completed_at",
      "p.failed_at",
      "p.canceled_at",
      "p.failure_reason",
      "p.seq",
      "p.created_at",
    ]);
}

function payoutEntry(
  kind: "payout_requested" | "payout_completed" | "payout_failed",
  p: { id: string; merchant_id: string; mode: string; currency: string },
  at: Date,
  lines: LedgerEntry["lines"],
): LedgerEntry {
  return { kind, merchantId: p.merchant_id, mode: p.mode, currency: p.currency, payoutId: p.id, at, lines };
}

/** The merchant and mode a payout is for (an operator acting for it, or the payout schedule). */
export type PayoutOwner = Pick<MerchantCaller, "merchantId" | "mode">;

/**
 * Requests a payout of the merchant's available balance in `currency` to its active bank account
 * of that currency, under the merchant's funds lock. What the merchant owes in pending (refunds
 * larger than what was left there) is settled from available first; the rest goes in transit.
 * Null when nothing is left to pay out. The new payout is leased to its requester for the recovery
 * job's lease, so the requester advances it and no one else does unless the requester dies.
 */
export async function requestPayout(
  deps: CoreDeps,
  tx: Tx,
  owner: PayoutOwner,
  {
    currency,
    bankAccountId,
  }: {
    currency: string;
    /** Another of the merchant's accounts in that currency than its active one (paytami trigger's fixture account). */
    bankAccountId?: string | undefined;
  },
): Promise<Changes<PayoutView | null>> {
  const { merchantId, mode } = owner;
  const trx = db(tx);
  const accounts = trx
    .selectFrom("bank_accounts")
    .select(["id", "last4"])
    .where("merchant_id", "=", merchantId)
    .where("mode", "=", mode)
    .where("currency", "=", currency);
  const account = await (bankAccountId === undefined ? accounts.where("active", "=", true) : accounts.where("id", "=", bankAccountId)).executeTakeFirst();
  if (!account) fail("validation_error", `no bank account for ${currency}`);
  const balance = await lockMerchantFunds(tx, merchantId, mode, currency);
  const available = balance.available;
  const debt = balance.pending < 0n ? (available < -balance.pending ? available : -balance.pending) : 0n;
  const amount = available - debt;
  if (amount <= 0n) return withoutEvents(null);
  const at = deps.now();
  const row: PayoutRow = {
    id: newId("payout"),
    merchant_id: merchantId,
    mode,
    currency,
    amount: amount.toString(),
    status: "requested",
    bank_account_id: account!.id,
    last4: account!.last4,
    requested_at: at,
    processing_at: null,
    sent_to_bank_at: null,
    completed_at: null,
    failed_at: null,
    canceled_at: null,
    failure_reason: null,
  };
  const { last4: _last4, ...columns } = row;
  await trx
    .insertInto("payouts")
    .values({ ...columns, claimed_until: new Date(at.getTime() + deps.config.jobs.recoverPayouts.leaseMs), created_at: at, updated_at: at })
    .execute();
  await postLedger(tx, [
    payoutEntry("payout_requested", row, at, [
      { account: "merchant_available", amount: -available },
      { account: "merchant_pending", amount: debt },
      { account: "merchant_in_transit", amount },
    ]),
  ]);
  return withoutEvents(toPayoutView(row));
}

/** Moves a payout from one status to the next, stamping it (one statement); nothing when it is not in `from` any more (someone else moved it). */
async function step(deps: CoreDeps, tx: Tx, payoutId: string, from: string, to: "processing" | "sent_to_bank"): Promise<void> {
  const at = deps.now();
  await db(tx)
    .updateTable("payouts")
    .set({ status: to, [`${to}_at`]: at, updated_at: at })
    .where("id", "=", payoutId)
    .where("status", "=", from)
    .execute();
}

/** The bank's answer, recorded: completed (the money leaves in_transit for Paytami's bank) or failed (back to available), and its event. */
async function finish(deps: CoreDeps, tx: Tx, payoutId: string, outcome: BankOutcome, eventId: string | undefined): Promise<void> {
  await atomically(tx, async (tx) => {
    const trx = db(tx);
    const payout = await trx
      .selectFrom("payouts")
      .select(["id", "merchant_id", "mode", "currency", "amount"])
      .where("id", "=", payoutId)
      .where("status", "=", "sent_to_bank")
      .forUpdate()
      .executeTakeFirst();
    if (!payout) return withoutEvents(undefined);
    const at = deps.now();
    const amount = BigInt(payout.amount);
    const completed = outcome.status === "completed";
    await trx
      .updateTable("payouts")
      .set(
        completed
          ? { status: "completed", completed_at: at, claimed_until: null, updated_at: at }
          : { status: "failed", failed_at: at, failure_reason: outcome.failureReason, claimed_until: null, updated_at: at },
      )
      .where("id", "=", payoutId)
      .execute();
    await postLedger(tx, [
      completed
        ? payoutEntry("payout_completed", payout, at, [
            { account: "merchant_in_transit", amount: -amount },
            { account: "platform_cash", amount },
          ])
        : payoutEntry("payout_failed", payout, at, [
            { account: "merchant_in_transit", amount: -amount },
            { account: "merchant_available", amount },
          ]),
    ]);
    const view = toPayoutView(await payouts(tx).where("p.id", "=", payoutId).executeTakeFirstOrThrow());
    return {
      value: undefined,
      events: [
        {
          merchantId: payout.merchant_id,
          mode: payout.mode,
          type: completed ? "payout.completed" : "payout.failed",
          data: view,
          at,
          ...(eventId ? { id: eventId } : {}),
        },
      ],
    };
  });
}

/**
 * Moves a payout through whatever of processing → sent_to_bank → completed | failed is still ahead
 * of it, each step its own short transaction, the bank asked between them; answers the payout as
 * it ends. Safe to run again on the same payout, or from two places at once. `eventId`: the id its
 * payout.completed / payout.failed event gets (paytami trigger prints it).
 */
export async function advancePayout(deps: CoreDeps, tx: Tx, payoutId: string, options: { eventId?: string } = {}): Promise<PayoutView> {
  // A transaction here would hold the payout's locks across the bank's calls.
  if (tx.isInTransaction()) throw new Error("advancing a payout calls the bank and must not run inside a transaction");
  const current = await payouts(tx).select("b.account_number").where("p.id", "=", payoutId).executeTakeFirst();
  if (!current) throw new DomainError("validation_error", `No payout ${payoutId}.`);
  if (current.status === "requested" || current.status === "processing" || current.status === "sent_to_bank") {
    const mode = current.mode as Mode;
    const bank = bankFor(mode);
    const transfer: BankTransfer = { payoutId, amount: BigInt(current.amount), currency: current.currency, accountNumber: current.account_number };
    await step(deps, tx, payoutId, "requested", "processing");
    // Each bank call within PROCESSOR_CALL_TIMEOUT: past it the payout stays at its step and the
    // recovery job asks again, which the payout id as the bank's idempotency key makes safe.
    if (current.status !== "sent_to_bank") {
      await answerWithin(deps.config, { mode, call: "bank_submit" }, (signal) => bank.submit(transfer, signal));
      await step(deps, tx, payoutId, "processing", "sent_to_bank");
    }
    const outcome = await answerWithin(deps.config, { mode, call: "bank_outcome" }, (signal) => bank.outcome(transfer, signal));
    await finish(deps, tx, payoutId, outcome, options.eventId);
  }
  return toPayoutView(await payouts(tx).where("p.id", "=", payoutId).executeTakeFirstOrThrow());
}

/**
 * `paytami simulate payout` and tRPC payouts.request, for the merchant the operator acts for: a
 * payout requested now (a short transaction of its own) and taken through the bank's steps; the
 * payout as it ended.
 */
export async function payOutNow(deps: CoreDeps, tx: Tx, owner: MerchantCaller, { currency }: { currency: string }): Promise<PayoutView> {
  const requested = await atomically(tx, (inner) => requestPayout(deps, inner, owner, { currency }));
  if (!requested) return fail("validation_error", `nothing available to pay out in ${currency}`);
  return advancePayout(deps, tx, requested.id);
}

async function findPayout(tx: Tx, id: string) {
  if (!isId("payout", id)) return undefined;
  return payouts(tx).where("p.id", "=", id).executeTakeFirst();
}

/** Any payout for an operator on its own; a merchant caller's own (same merchant and mode) only. */
export async function getPayout(_deps: CoreDeps, tx: Tx, caller: OperatorCaller | MerchantCaller, id: string): Promise<PayoutView> {
  const row = await findPayout(tx, id);
  if (!row || (caller.kind === "merchant" && (row.merchant_id !== caller.merchantId || row.mode !== caller.mode)))
    return fail("validation_error", `No payout ${id}.`);
  return toPayoutView(row);
}

/** A merchant's payouts in one mode (the one the operator acts for), newest first, keyset-paginated like every list. */
export async function listPayouts(_deps: CoreDeps, tx: Tx, owner: MerchantCaller, query: PageQuery): Promise<Page<PayoutView>> {
  const { merchantId, mode } = owner;
  const limit = parseLimit(query.limit);
  return keysetPage(limit, query.starting_after, {
    noun: "payouts",
    findCursor: async (id) => {
      const row = await findPayout(tx, id);
      return row && row.merchant_id === merchantId && row.mode === mode ? row : undefined;
    },
    fetch: (after, take) => {
      let q = payouts(tx).where("p.merchant_id", "=", merchantId).where("p.mode", "=", mode);
      if (after) q = q.where((eb) => eb(eb.refTuple("p.created_at", "p.seq"), "<", eb.tuple(after.created_at, after.seq)));
      return q.orderBy("p.created_at", "desc").orderBy("p.seq", "desc").limit(take).execute();
    },
    view: toPayoutView,
  });
}
