import type { Mode } from "../config.ts";
import { db } from "../db/orm.ts";
import { parseMode } from "./api-keys.ts";
import type { MerchantCaller, OperatorCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { newId } from "./ids.ts";
import { withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";

// A merchant's bank accounts for payouts, one active per (merchant, mode, currency). The full
// account number stays in the core: it goes to the bank and nowhere else; everything that leaves
// (CLI, tRPC, gRPC, events, logs) shows only the last four digits.

/** The masked view every transport shows. */
export interface BankAccountView {
  id: string;
  currency: string;
  bank_name: string;
  holder_name: string;
  masked: string;
  active: boolean;
  created_at: string;
}

export interface AddBankAccountInput {
  /** The operator names the merchant and mode; a merchant caller (a dashboard session) adds to its own, and these are ignored. */
  merchantId?: string | undefined;
  mode?: string | undefined;
  currency: string;
  accountNumber: string;
  bankName?: string | undefined;
  holderName?: string | undefined;
  /** False adds it without making it the payout account (the active one stays); default true. */
  active?: boolean | undefined;
}

/** How an account number is shown: "****" and its last four digits (spec 2.6 bank_account_masked). */
export const maskAccount = (last4: string): string => `****${last4}`;

const ACCOUNT_NUMBER = /^[0-9]{4,34}$/;
const DEFAULT_BANK_NAME = "Sandbox Bank";

interface BankAccountRow {
  id: string;
  currency: string;
  bank_name: string;
  holder_name: string;
  last4: string;
  active: boolean;
  created_at: Date;
}

const VIEW_COLUMNS = ["id", "currency", "bank_name", "holder_name", "last4", "active", "created_at"] as const;

const toBankAccountView = (row: BankAccountRow): BankAccountView => ({
  id: row.id,
  currency: row.currency,
  bank_name: row.bank_name,
  holder_name: row.holder_name,
  masked: maskAccount(row.last4),
  active: row.active,
  created_at: row.created_at.toISOString(),
});

function text(value: string | undefined, field: string, fallback: string): string {
  if (value === undefined) return fallback;
  const trimmed = value.trim();
  if (trimmed === "" || [...trimmed].length > 200 || trimmed.includes("\u0000")) fail("validation_error", `${field} must be 1 to 200 characters.`);
  return trimmed;
}

/** Whose accounts: the merchant caller's own, or the ones the operator names. */
function ownerOf(
  caller: OperatorCaller | MerchantCaller,
  input: { merchantId?: string | undefined; mode?: string | undefined },
): { merchantId: string; mode?: Mode } {
  if (caller.kind === "merchant") return { merchantId: caller.merchantId, mode: caller.mode };
  return { merchantId: input.merchantId ?? "", ...(input.mode !== undefined ? { mode: parseMode(input.mode) } : {}) };
}

/**
 * Adds a bank account; it replaces (deactivates) the merchant's active account of that mode and
 * currency, and keeps its place in the payout schedule (a first account is first due one
 * PAYOUT_SCHEDULE from now; none when the schedule is off).
 */
export async function addBankAccount(
  deps: CoreDeps,
  tx: Tx,
  caller: OperatorCaller | MerchantCaller,
  input: AddBankAccountInput,
): Promise<Changes<BankAccountView>> {
  const owner = ownerOf(caller, input);
  const merchantId = owner.merchantId;
  const mode: Mode = owner.mode ?? parseMode(input.mode ?? "");
  if (!ACCOUNT_NUMBER.test(input.accountNumber)) fail("validation_error", "account_number must be 4 to 34 digits.");
  const trx = db(tx);
  // The merchant's row lock serializes two adds for one merchant, so one of them is the active account.
  const merchant = await trx.selectFrom("merchants").select(["name", "currencies"]).where("id", "=", merchantId).forUpdate().executeTakeFirst();
  if (!merchant) return fail("validation_error", `No merchant ${merchantId}.`);
  if (!/^[A-Z]{3}$/.test(input.currency)) fail("validation_error", "currency must be a 3-letter uppercase code.");
  if (!(input.currency in deps.config.currencies) || !merchant.currencies.includes(input.currency)) {
    fail("currency_not_supported", `Currency ${input.currency} is not enabled for this merchant.`);
  }
  const bankName = text(input.bankName, "bank_name", DEFAULT_BANK_NAME);
  const holderName = text(input.holderName, "holder_name", merchant.name);
  const at = deps.now();
  const active = input.active ?? true;
  const replaced = !active
    ? undefined
    : await trx
        .updateTable("bank_accounts")
        .set({ active: false, updated_at: at })
        .where("merchant_id", "=", merchantId)
        .where("mode", "=", mode)
        .where("currency", "=", input.currency)
        .where("active", "=", true)
        .returning("next_payout_at")
        .executeTakeFirst();
  const schedule = deps.config.payoutScheduleMs;
  const nextPayoutAt = schedule === null || !active ? null : (replaced?.next_payout_at ?? new Date(at.getTime() + schedule));
  const row: BankAccountRow = {
    id: newId("ba"),
    currency: input.currency,
    bank_name: bankName,
    holder_name: holderName,
    last4: input.accountNumber.slice(-4),
    active,
    created_at: at,
  };
  await trx
    .insertInto("bank_accounts")
    .values({ ...row, merchant_id: merchantId, mode, account_number: input.accountNumber, next_payout_at: nextPayoutAt, updated_at: at })
    .execute();
  return withoutEvents(toBankAccountView(row));
}

/** A merchant's bank accounts, newest first; in one mode when given. */
export async function listBankAccounts(
  _deps: CoreDeps,
  tx: Tx,
  caller: OperatorCaller | MerchantCaller,
  input: { merchantId?: string | undefined; mode?: string | undefined },
): Promise<BankAccountView[]> {
  const { merchantId, mode } = ownerOf(caller, input);
  let query = db(tx).selectFrom("bank_accounts").select(VIEW_COLUMNS).where("merchant_id", "=", merchantId);
  if (mode !== undefined) query = query.where("mode", "=", mode);
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").execute();
  return rows.map(toBankAccountView);
}
