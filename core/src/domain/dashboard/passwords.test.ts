import { describe, expect, it } from "vitest";
import { DomainError } from "../errors.ts";
import { checkNewPassword, hashPassword, passwordMatches } from "./passwords.ts";

describe("dashboard passwords", () => {
  it("are hashed with argon2id and verified against the hash", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await passwordMatches(stored, "correct horse battery")).toBe(true);
    expect(await passwordMatches(stored, "correct horse batterY")).toBe(false);
  });

  it("answer false without a stored hash, after the same work as a real check", async () => {
    await passwordMatches(null, "warm-up the dummy hash");
    const stored = await hashPassword("correct horse battery");
    const time = async (stored: string | null) => {
      const start = performance.now();
      for (let i = 0; i < 5; i++) await passwordMatches(stored, "wrong password here");
      return performance.now() - start;
    };
    const unknown = await time(null);
    const wrong = await time(stored);
    expect(await passwordMatches(null, "anything at all")).toBe(false);
    // Same parameters, so the same cost: within a factor of two either way even on a busy machine.
    expect(unknown / wrong).toBeGreaterThan(0.5);
    expect(unknown / wrong).toBeLessThan(2);
  });

  it("must be 12 to 256 characters", () => {
    expect(() => checkNewPassword("elevenchars")).toThrow(DomainError);
    expect(() => checkNewPassword("elevenchars")).toThrow("at least 12");
    expect(() => checkNewPassword("twelve chars")).not.toThrow();
    expect(() => checkNewPassword("x".repeat(257))).toThrow("at most 256");
  });
});
