import { db } from "../../db/orm.ts";
import type { Tx } from "../unit-of-work.ts";
import { totpStep } from "./totp.ts";

/**
 * Accepts `code` for the user once: it must be the secret's code now (a step either way), of a
 * later step than the last code the user got in with (RFC 6238 §5.2: a code seen over a shoulder or
 * in a proxy's log is spent). The step is recorded in the same statement that checks it, so two
 * cores given the same code at once accept it once.
 */
export async function useTotpCode(tx: Tx, userId: string, secret: string, code: string | undefined, now: Date): Promise<boolean> {
  const step = totpStep(secret, code, now);
  if (step === undefined) return false;
  const used = await db(tx)
    .updateTable("dashboard_users")
    .set({ totp_last_step: step })
    .where("id", "=", userId)
    .where((eb) => eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", step)]))
    .returning("id")
    .executeTakeFirst();
  return used !== undefined;
}
