import type { JobPolicy } from "../config.ts";
import { db } from "../db/orm.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { advancePayout, requestPayout } from "../domain/payouts.ts";
import { claimLeased, completeLeased, eachRow, handleClaimed, type LeasedQueue, type LeasePolicy, type Tally, type WorkQueue } from "./claim.ts";

// The payout schedule (PAYOUT_SCHEDULE, DESIGN §4): each active bank account whose next_payout_at
// has come gets its currency's available balance paid out, then its next_payout_at moves one
// schedule on. Accounts are claimed FOR UPDATE SKIP LOCKED and the money is taken under the
// merchant's funds lock, so any number of cores sweep together without paying anything twice.
// The bank's steps run after the claim has committed, outside any transaction.

interface DueAccount {
  id: string;
  merchant_id: string;
  mode: string;
  currency: string;
  next_payout_at: Date | null;
}

/** The first time after `now` that is a whole number of schedules after `due`: the account keeps its rhythm even when no core ran for a while. */
export function nextPayoutAt(due: Date, now: Date, scheduleMs: number): Date {
  const missed = Math.max(0, Math.floor((now.getTime() - due.getTime()) / scheduleMs));
  return new Date(due.getTime() + (missed + 1) * scheduleMs);
}

export const dueBankAccounts: WorkQueue<"bank_accounts", DueAccount> = {
  job: "sweep_payouts",
  table: "bank_accounts",
  // bank_accounts_sweep_idx
  due: (rows, now) =>
    rows
      .select(["id", "merchant_id", "mode", "currency", "next_payout_at"])
      .where("active", "=", true)
      .where("next_payout_at", "<=", now)
      .orderBy("next_payout_at"),
};

/** Sweeps every due account (batch by batch until none is left), then advances the payouts made. Outcome: "requested" or "nothing" (no money available). */
export async function sweepPayouts(deps: CoreDeps, policy: JobPolicy): Promise<Tally> {
  const schedule = deps.config.payoutScheduleMs;
  if (schedule === null) return {};
  const total: Tally = {};
  for (;;) {
    const created: string[] = [];
    const tally = await handleClaimed(
      deps,
      dueBankAccounts,
      policy,
      eachRow(deps, dueBankAccounts.job, async (tx, account) => {
        const owner = { merchantId: account.merchant_id, mode: account.mode as "test" | "live" };
        const { value: payout, events } = await requestPayout(deps, tx, owner, { currency: account.currency });
        const now = deps.now();
        await db(tx)
          .updateTable("bank_accounts")
          .set({ next_payout_at: nextPayoutAt(account.next_payout_at ?? now, now, schedule), updated_at: now })
          .where("id", "=", account.id)
          .execute();
        if (payout) created.push(payout.id);
        return { value: payout ? "requested" : "nothing", events };
      }),
    );
    await advanceAll(deps, created);
    let claimed = 0;
    for (const [outcome, n] of Object.entries(tally)) {
      total[outcome] = (total[outcome] ?? 0) + n;
      claimed += n;
    }
    if (claimed < policy.batch) return total;
  }
}

/** Advances each payout; one that fails (the bank is unreachable) stays leased and the recovery job tries it again. */
async function advanceAll(deps: CoreDeps, payoutIds: readonly string[]): Promise<string[]> {
  const advanced: string[] = [];
  for (const id of payoutIds) {
    try {
      await advancePayout(deps, deps.orm.em.fork(), id);
      advanced.push(id);
    } catch (err) {
      deps.log.warn({ err, payout_id: id }, "payout not advanced; the recovery job will try again");
    }
  }
  return advanced;
}

export const unfinishedPayouts: LeasedQueue<"payouts", "id", { id: string }> = {
  job: "recover_payouts",
  table: "payouts",
  key: "id",
  // payouts_open_idx
  due: (rows) => rows.select("id").where("status", "in", ["requested", "processing", "sent_to_bank"]).orderBy("requested_at"),
};

/** Payouts left half-way (their requester died, or the bank did not answer), once their lease has run out: advanced again. Outcome: "advanced". */
export async function recoverPayouts(deps: CoreDeps, policy: LeasePolicy): Promise<Tally> {
  const claimed = await claimLeased(deps, unfinishedPayouts, policy);
  const advanced = await advanceAll(
    deps,
    claimed.map((row) => row.id),
  );
  await completeLeased(deps, unfinishedPayouts, advanced, {}, "advanced");
  return advanced.length ? { advanced: advanced.length } : {};
}
