// DASHBOARD_LOGIN_LIMIT's counting against a real PostgreSQL: attempts racing in parallel (as on
// several cores) admit exactly the limit, a success gives its count back, and a new window starts afresh.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../../test/support/database.ts";
import type { CoreDeps } from "../deps.ts";
import { DomainError } from "../errors.ts";
import { unitOfWork } from "../unit-of-work.ts";
import { admitSignIn } from "./login-throttle.ts";

let database: MigratedDatabase | undefined;
let deps: CoreDeps;
const now = new Date("2026-11-25T12:01:00.000Z");
const policy = { loginLimit: { perAccount: 5, perIp: 20, windowMs: 15 * 60_000 } };

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 8, now: () => now });
  ({ deps } = database);
});

afterAll(() => database?.close());

const outcome = (attempt: Promise<unknown>) =>
  attempt.then(
    () => "admitted",
    (error: unknown) => (error instanceof DomainError ? `${error.code} ${error.retryAfterSeconds}` : error),
  );

describe("admitSignIn", () => {
  test("12 attempts at once on one account: exactly 5 admitted, the rest rate_limited until the window ends", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => outcome(admitSignIn(policy, unitOfWork(deps), { email: "race@example.com", clientIp: `192.0.2.${i}` }, now))),
    );
    expect(results.filter((r) => r === "admitted")).toHaveLength(5);
    // The window is 12:00–12:15: 14 minutes left.
    expect(results.filter((r) => r === "rate_limited 840")).toHaveLength(7);
    // The next window admits again.
    expect(
      await outcome(admitSignIn(policy, unitOfWork(deps), { email: "race@example.com", clientIp: "192.0.2.1" }, new Date("2026-11-25T12:15:00.000Z"))),
    ).toBe("admitted");
  });

  test("a successful attempt gives its count back to the account and the address", async () => {
    for (let i = 0; i < 10; i++) {
      const release = await admitSignIn(policy, unitOfWork(deps), { email: "ok@example.com", clientIp: "198.51.100.1" }, now);
      await release();
    }
    for (let i = 0; i < 5; i++) await admitSignIn(policy, unitOfWork(deps), { email: "ok@example.com", clientIp: "198.51.100.1" }, now);
    expect(await outcome(admitSignIn(policy, unitOfWork(deps), { email: "ok@example.com", clientIp: "198.51.100.1" }, now))).toBe("rate_limited 840");
  });

  test("off admits everything", async () => {
    for (let i = 0; i < 30; i++) await admitSignIn({ loginLimit: null }, unitOfWork(deps), { email: "off@example.com", clientIp: "198.51.100.2" }, now);
  });
});
