// The bank a payout is sent through, seen from the core. Like the processor (core/src/processor),
// every call is external I/O made outside any database transaction: the payout's steps are
// stamped in short transactions of their own around these calls.

/** What the bank is asked to move. `payoutId` is its idempotency key: a payout sent twice (a core died in between) is paid once. */
export interface BankTransfer {
  payoutId: string;
  amount: bigint;
  currency: string;
  /** The full number: for the bank only, never logged or shown. */
  accountNumber: string;
}

export type BankOutcome = { status: "completed" } | { status: "failed"; failureReason: string };

export interface PayoutBank {
  /** Hands the transfer to the bank (then the payout is `sent_to_bank`). `signal` aborts at PROCESSOR_CALL_TIMEOUT. */
  submit(transfer: BankTransfer, signal: AbortSignal): Promise<void>;
  /** How the submitted transfer ended. */
  outcome(transfer: BankTransfer, signal: AbortSignal): Promise<BankOutcome>;
}
