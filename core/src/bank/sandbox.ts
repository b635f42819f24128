import type { BankOutcome, PayoutBank } from "./bank.ts";

/** DESIGN §4: an account number ending in 0002 is a closed account; every other one is paid. */
export const SANDBOX_CLOSED_ACCOUNT_SUFFIX = "0002";

export function sandboxBank(): PayoutBank {
  return {
    submit: async () => {},
    outcome: async (transfer): Promise<BankOutcome> =>
      transfer.accountNumber.endsWith(SANDBOX_CLOSED_ACCOUNT_SUFFIX) ? { status: "failed", failureReason: "account_closed" } : { status: "completed" },
  };
}
