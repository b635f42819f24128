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
    const once = async (hash: string | null) => {
      const start = performance.now();
      expect(await passwordMatches(hash, "wrong password here")).toBe(false);
      return performance.now() - start;
    };
    // Interleaved, so a busy machine slows both alike; medians, so one stall does not decide.
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 11; i++) {
      unknown.push(await once(null));
      wrong.push(await once(stored));
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    // Same parameters, so the same cost: within a factor of two either way.
    expect(median(unknown) / median(wrong)).toBeGreaterThan(0.5);
    expect(median(unknown) / median(wrong)).toBeLessThan(2);
  });

  it("must be 12 to 256 characters", () => {
    expect(() => checkNewPassword("elevenchars")).toThrow(DomainError);
    expect(() => checkNewPassword("elevenchars")).toThrow("at least 12");
    expect(() => checkNewPassword("twelve chars")).not.toThrow();
    expect(() => checkNewPassword("x".repeat(257))).toThrow("at most 256");
  });
});
