import { describe, expect, it } from "vitest";
import { newTotpSecret, totpCode, totpStep, totpUri } from "./totp.ts";

describe("TOTP", () => {
  const secret = newTotpSecret();
  const now = new Date("2026-11-25T12:00:00Z");

  it("accepts the code of the current step and the steps next to it, naming its step; nothing else", () => {
    const step = Math.floor(now.getTime() / 30_000);
    expect(totpStep(secret, totpCode(secret, now), now)).toBe(step);
    expect(totpStep(secret, totpCode(secret, new Date(now.getTime() - 30_000)), now)).toBe(step - 1);
    expect(totpStep(secret, totpCode(secret, new Date(now.getTime() + 30_000)), now)).toBe(step + 1);
    expect(totpStep(secret, totpCode(secret, new Date(now.getTime() - 120_000)), now)).toBeUndefined();
    expect(totpStep(secret, undefined, now)).toBeUndefined();
    expect(totpStep(secret, "12345", now)).toBeUndefined();
    expect(totpStep(newTotpSecret(), totpCode(secret, now), now)).toBeUndefined();
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
