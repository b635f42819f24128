import { createHash, randomBytes } from "node:crypto";

// Session, invite and reset tokens: 256 random bits, given out once (a cookie, a URL) and kept only
// as their SHA-256 digest, so a copy of the database opens nothing.

/** A new opaque token: 32 CSPRNG bytes, base64url (43 characters). */
export function newSecretToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The stored form of a token. */
export function digestToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether `text` could be a token at all (so junk is refused without a lookup). */
export function isTokenShaped(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(text);
}
