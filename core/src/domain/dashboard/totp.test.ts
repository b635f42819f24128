import { describe, expect, it } from "vitest";
import { newTotpSecret, totpCode, totpUri, totpValid } from "./totp.ts";

describe("TOTP", () => {
  const secret = newTotpSecret();
  const now = new Date("2026-11-25T12:00:00Z");

  it("accepts the code of the current step and the steps next to it, nothing else", () => {
    expect(totpValid(secret, totpCode(secret, now), now)).toBe(true);
    expect(totpValid(secret, totpCode(secret, new Date(now.getTime() - 30_000)), now)).toBe(true);
    expect(totpValid(secret, totpCode(secret, new Date(now.getTime() + 30_000)), now)).toBe(true);
    expect(totpValid(secret, totpCode(secret, new Date(now.getTime() - 120_000)), now)).toBe(false);
    expect(totpValid(secret, undefined, now)).toBe(false);
    expect(totpValid(secret, "12345", now)).toBe(false);
    expect(totpValid(newTotpSecret(), totpCode(secret, now), now)).toBe(false);
  });

  it("gives an otpauth URI an authenticator reads: issuer, account and the secret", () => {
    const uri = new URL(totpUri(secret, "ana@example.com"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/Paytami:ana@example.com");
    expect(uri.searchParams.get("secret")).toBe(secret);
    expect(uri.searchParams.get("issuer")).toBe("Paytami");
  });
});
