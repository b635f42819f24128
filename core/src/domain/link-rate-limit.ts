import { sql } from "kysely";
import type { CoreConfig } from "../config.ts";
import { db } from "../db/orm.ts";
import { PreparedStatement, statementBuilder } from "../db/prepared.ts";
import { DomainError } from "./errors.ts";
import { isId } from "./ids.ts";
import { LINK_COLUMNS, type LinkRow } from "./link-view.ts";
import type { Tx } from "./unit-of-work.ts";

// LINK_RATE_LIMIT as fixed windows counted in PostgreSQL, so every facade and core shares them: a
// pay attempt adds one to its client IP's bucket and its link's bucket for the current window. The
// counting is the same statement that reads the link (one round trip for both), runs outside any
// transaction and holds each counter row only for that one upsert, so pays on one link queue on its
// row for microseconds, never for a whole payment creation. Every attempt on an existing link
// counts, whatever its outcome (refused ones, replays and 429s included): a client that keeps
// trying keeps itself limited. Attempts on ids that never existed answer 404 and count nowhere.
//
// The statement commits with synchronous_commit off. A row lock lasts until its transaction's
// commit, and a synchronous commit waits for the WAL flush: with every pay on one link (a link
// shared in a chat) updating the same `link:<id>` row, pays queued on that lock through one flush
// each (the bench saw half the backends waiting on it) and the link paid at a fraction of
// POST /v1/payments' rate. Committed asynchronously, the lock is released as soon as the commit is
// recorded, and the pay waits for one flush (its payment's), as a payment does. Counts stay exact and
// visible to every instance at once; only a PostgreSQL crash can lose increments not yet flushed
// (wal_writer_delay, about the last 0.2–0.6 s of attempts that created no payment: a payment's own
// synchronous commit flushes the counts recorded before it), which lets those clients in again early.

type AdmitValues = {
  /** 'off' when the statement is its own transaction; inside a caller's transaction its setting is left alone. */
  synchronous_commit: string | null;
  link_id: string;
  ip_bucket: string;
  link_bucket: string;
  window_start: Date;
};

interface AdmitRow extends LinkRow {
  commit_mode: string;
  ip_attempts: number | null;
  link_attempts: number | null;
}

const linkWithMerchant = (v: { link_id: string }) =>
  statementBuilder
    .selectFrom("links")
    .innerJoin("merchants", "merchants.id", "links.merchant_id")
    .select(LINK_COLUMNS)
    .where("links.id", "=", v.link_id);

const ADMIT = new PreparedStatement<AdmitValues, AdmitRow>((v) =>
  statementBuilder
    .with("link", () => linkWithMerchant(v))
    .with("hits", (qc) =>
      qc
        .insertInto("link_rate_limits")
        .columns(["bucket", "window_start", "attempts"])
        .expression((eb) =>
          eb.selectFrom("link").select([
            sql<string>`unnest(array[${v.ip_bucket}::text, ${v.link_bucket}::text])`.as("bucket"),
            sql<Date>`${v.window_start}::timestamptz`.as("window_start"),
            sql<number>`1`.as("attempts"),
          ]))
        .onConflict((oc) => oc.columns(["bucket", "window_start"]).doUpdateSet({ attempts: sql<number>`link_rate_limits.attempts + 1` }))
        .returning(["link_rate_limits.bucket", "link_rate_limits.attempts"]))
    .selectFrom("link")
    .selectAll("link")
    .select((eb) => [
      // Evaluated during the statement, so it applies to the statement's own commit (and then lapses).
      sql<string>`set_config('synchronous_commit', coalesce(${v.synchronous_commit}::text, current_setting('synchronous_commit')), true)`.as("commit_mode"),
      eb.selectFrom("hits").select("hits.attempts").where("hits.bucket", "=", v.ip_bucket).as("ip_attempts"),
      eb.selectFrom("hits").select("hits.attempts").where("hits.bucket", "=", v.link_bucket).as("link_attempts"),
    ]));

const LOOKUP = new PreparedStatement<{ link_id: string }, LinkRow>((v) => linkWithMerchant(v));

/**
 * Reads the link and counts this pay attempt against the limit, in one statement. Undefined when
 * the link never existed; `rate_limited` (with the seconds until the window admits again) when this
 * attempt is over the limit for its IP or its link.
 */
export async function admitPayAttempt(config: Pick<CoreConfig, "linkRateLimit">, tx: Tx, linkId: string, clientIp: string, now: Date): Promise<LinkRow | undefined> {
  if (!isId("link", linkId)) return undefined;
  const limit = config.linkRateLimit;
  if (!limit) return (await LOOKUP.run(db(tx), { link_id: linkId })).rows[0];
  const windowStart = Math.floor(now.getTime() / limit.windowMs) * limit.windowMs;
  const { rows } = await ADMIT.run(db(tx), {
    synchronous_commit: tx.isInTransaction() ? null : "off",
    link_id: linkId,
    ip_bucket: `ip:${clientIp}`,
    link_bucket: `link:${linkId}`,
    window_start: new Date(windowStart),
  });
  const row = rows[0];
  if (!row) return undefined;
  const { ip_attempts, link_attempts, commit_mode: _, ...link } = row;
  const overIp = (ip_attempts ?? 0) > limit.perIp;
  if (overIp || (link_attempts ?? 0) > limit.perLink) {
    // Fixed windows: the next window admits again, so that is an honest Retry-After.
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + limit.windowMs - now.getTime()) / 1000));
    throw new DomainError(
      "rate_limited",
      overIp ? "Too many payment attempts from this address; retry later." : "Too many payment attempts on this link; retry later.",
      retryAfterSeconds,
    );
  }
  return link;
}
