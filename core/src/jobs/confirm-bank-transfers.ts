import type { CoreDeps } from "../domain/deps.ts";
import { capture } from "../domain/payment-states.ts";
import { transitionPayment } from "../domain/payment-transitions.ts";
import { eachRow, handleClaimed, type ClaimPolicy, type Tally, type WorkQueue } from "./claim.ts";

/**
 * The sandbox's bank: a test-mode bank transfer started BANK_TRANSFER_CONFIRM_AFTER ago has arrived
 * (payments_bank_transfer_confirm_idx). Live transfers are reported by the live processor.
 */
export function startedBankTransfers(deps: Pick<CoreDeps, "config">): WorkQueue<"payments", { id: string }> {
  return {
    job: "confirm_bank_transfers",
    table: "payments",
    due: (rows, now) =>
      rows
        .select("id")
        .where("status", "=", "processing")
        .where("method_type", "=", "bank_transfer")
        .where("mode", "=", "test")
        .where("processing_at", "<=", new Date(now.getTime() - deps.config.bankTransferConfirmAfterMs))
        .orderBy("processing_at"),
  };
}

/** Captures each confirmed transfer (payment.succeeded) in its own savepoint. Outcome: "captured". */
export function confirmBankTransfers(deps: CoreDeps, policy: ClaimPolicy): Promise<Tally> {
  const queue = startedBankTransfers(deps);
  return handleClaimed(
    deps,
    queue,
    policy,
    eachRow(deps, queue.job, async (tx, payment) => {
      const { events } = await transitionPayment(deps, tx, payment.id, [capture]);
      return { value: "captured", events };
    }),
  );
}
