import { Secret, TOTP } from "otpauth";

// TOTP second factor (RFC 6238: SHA-1, 6 digits, 30 s), as every authenticator app reads it.
// A code of the step before or after is accepted too, for clocks a little apart.

const ISSUER = "Paytami";

/** A new secret, base32 (what is stored and what the otpauth URI carries). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

const totp = (secret: string, label = "") => new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });

/** The otpauth:// URI an authenticator app scans (as a QR code) or takes typed in. */
export function totpUri(secret: string, email: string): string {
  return totp(secret, email).toString();
}

const PERIOD_MS = 30_000;

/** The time step `code` belongs to when it is the secret's code at `now` (one step either way), else undefined. */
export function totpStep(secret: string, code: string | undefined, now: Date): number | undefined {
  if (code === undefined || !/^\d{6}$/.test(code)) return undefined;
  const delta = totp(secret).validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? undefined : Math.floor(now.getTime() / PERIOD_MS) + delta;
}

/** The secret's code at `now` (tests, and the CLI's help for an operator setting up an app). */
export function totpCode(secret: string, now: Date): string {
  return totp(secret).generate({ timestamp: now.getTime() });
}
