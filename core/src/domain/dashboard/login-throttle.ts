import { createHash } from "node:crypto";
import { sql } from "kysely";
import { clientKey } from "../../../../proto/client-address.ts";
import type { DashboardPolicy } from "../../config.ts";
import { db } from "../../db/orm.ts";
import { DomainError } from "../errors.ts";
import { countAgain } from "../rate-limit-counter.ts";
import type { Tx } from "../unit-of-work.ts";

// DASHBOARD_LOGIN_LIMIT as fixed windows counted in PostgreSQL (the link_rate_limits counters, so
// every core shares them and the same purge job clears them): buckets "login-account:<digest of
// the e-mail>" (not the e-mail itself: the table is no place for addresses) and
// "login-ip:<client>". Every attempt is counted before its password is checked, in one statement,
// so two cores racing cannot both admit the last attempt; a successful one gives its count back,
// so only failures (and refused attempts: a client that keeps trying stays limited) use the limit.

export interface SignInAttempt {
  /** Lower-cased. */
  email: string;
  clientIp: string | undefined;
}

const buckets = (attempt: SignInAttempt) => ({
  account: `login-account:${createHash("sha256").update(attempt.email).digest("hex")}`,
  ip: `login-ip:${clientKey(attempt.clientIp ?? "unknown")}`,
});

type Limit = NonNullable<DashboardPolicy["loginLimit"]>;

const windowOf = (limit: Limit, now: Date) => new Date(Math.floor(now.getTime() / limit.windowMs) * limit.windowMs);

/**
 * Counts one sign-in attempt; `rate_limited` (with the seconds until the window admits again) when
 * its account or its client has used up the window. Returns what gives the count back on success.
 */
export async function admitSignIn(policy: Pick<DashboardPolicy, "loginLimit">, tx: Tx, attempt: SignInAttempt, now: Date): Promise<() => Promise<void>> {
  const limit = policy.loginLimit;
  if (!limit) return async () => undefined;
  const windowStart = windowOf(limit, now);
  const { account, ip } = buckets(attempt);
  const rows = await db(tx)
    .insertInto("link_rate_limits")
    .values([
      { bucket: account, window_start: windowStart, attempts: 1 },
      { bucket: ip, window_start: windowStart, attempts: 1 },
    ])
    .onConflict(countAgain)
    .returning(["bucket", "attempts"])
    .execute();
  const count = (bucket: string) => rows.find((row) => row.bucket === bucket)?.attempts ?? 0;
  if (count(account) > limit.perAccount || count(ip) > limit.perIp) {
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + limit.windowMs - now.getTime()) / 1000));
    throw new DomainError("rate_limited", "Too many failed sign-ins; try again later.", retryAfterSeconds);
  }
  return async () => {
    await db(tx)
      .updateTable("link_rate_limits")
      .set({ attempts: sql<number>`greatest(link_rate_limits.attempts - 1, 0)` })
      .where("bucket", "in", [account, ip])
      .where("window_start", "=", windowStart)
      .execute();
  };
}
