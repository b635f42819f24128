import { hash, verify, type Algorithm } from "@node-rs/argon2";
import { fail } from "../errors.ts";

// argon2id at OWASP's minimum parameters (19 MiB, 2 passes, 1 lane): tens of milliseconds a
// sign-in, which DASHBOARD_LOGIN_LIMIT keeps an attacker from multiplying.
const ARGON2ID = 2 as Algorithm;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** DESIGN §5: at least 12 characters; nothing else is imposed (length is what counts). */
export const MIN_PASSWORD_LENGTH = 12;
/** Longer than any passphrase anyone types; refused so nobody makes the hash work on a megabyte. */
export const MAX_PASSWORD_LENGTH = 256;

/** Refuses a password the user may not choose, with the reason. */
export function checkNewPassword(password: string): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) fail("validation_error", `password: must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (length > MAX_PASSWORD_LENGTH) fail("validation_error", `password: must be at most ${MAX_PASSWORD_LENGTH} characters.`);
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | undefined;

/**
 * Whether `password` matches `stored`. Without a stored hash (unknown e-mail, invite not accepted)
 * a dummy hash of the same parameters is verified instead and the answer is false, so both take
 * the same time and nobody learns which e-mails have accounts.
 */
export async function passwordMatches(stored: string | null | undefined, password: string): Promise<boolean> {
  const candidate = password.length > MAX_PASSWORD_LENGTH ? password.slice(0, MAX_PASSWORD_LENGTH) : password;
  if (!stored) {
    await verify(await (dummy ??= hashPassword("paytami-dummy-password")), candidate).catch(() => false);
    return false;
  }
  return verify(stored, candidate).catch(() => false);
}
