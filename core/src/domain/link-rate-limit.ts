import { sql } from "kysely";
import { clientKey } from "../../../proto/client-address.ts";
import type { CoreConfig } from "../config.ts";
import { db } from "../db/orm.ts";
import { PreparedStatement, statementBuilder } from "../db/prepared.ts";
import { DomainError } from "./errors.ts";
import { isId } from "./ids.ts";
import type { LinkKind } from "./link-input.ts";
import { LINK_COLUMNS, type LinkRow } from "./link-view.ts";
import type { Tx } from "./unit-of-work.ts";
import { countAgain, countOne } from "./rate-limit-counter.ts";

// LINK_RATE_LIMIT as fixed windows counted in PostgreSQL, so every facade and core shares them: a
// pay attempt adds one to its client's bucket and, when it gets that far, its link's bucket for the
// current window. The counting is the same statement that reads the link (one round trip for both),
// runs outside any transaction and holds each counter row only for that one upsert, so pays on one
// link queue on its row for microseconds, never for a whole payment creation.
//
// Who pays for an attempt: every attempt on an existing link counts against its client (an IPv4
// address, an IPv6 /64: proto/client-address.ts), whatever its outcome (junk, replays, 409s and 429s
// included): a client that keeps trying keeps itself limited. The link's bucket is shared by every
// customer of the link, so only attempts that may be honest fill it: one refused by its client's
// limit does not (else one client's refused flood would lock everyone out), nor one whose body is
// malformed for the link (the statement learns which link kinds the body fits, and counts the link
// only when it fits this one). Attempts on ids that never existed answer 404 and count nowhere.
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
  per_ip: number;
  /** The link kinds ("test:fixed", "live:variable", …) this request's body is well-formed for: the link is counted only if it is one. */
  fits: string[];
};

interface AdmitRow extends LinkRow {
  commit_mode: string;
  ip_attempts: number;
  /** This attempt's count on the link, when it was counted there. */
  link_counted: number | null;
  /** The link's count before this statement, for an attempt not counted there. */
  link_before: number | null;
}

const linkWithMerchant = (v: { link_id: string }) =>
  statementBuilder.selectFrom("links").innerJoin("merchants", "merchants.id", "links.merchant_id").select(LINK_COLUMNS).where("links.id", "=", v.link_id);

const ADMIT = new PreparedStatement<AdmitValues, AdmitRow>((v) =>
  statementBuilder
    .with("link", () => linkWithMerchant(v))
    .with("ip_hit", (qc) =>
      qc
        .insertInto("link_rate_limits")
        .columns(["bucket", "window_start", "attempts"])
        .expression((eb) => eb.selectFrom("link").select(countOne(v.ip_bucket, v.window_start)))
        .onConflict(countAgain)
        .returning("link_rate_limits.attempts"),
    )
    // Reads ip_hit's count, so the client's row is always locked before the link's (no lock cycles).
    .with("link_hit", (qc) =>
      qc
        .insertInto("link_rate_limits")
        .columns(["bucket", "window_start", "attempts"])
        .expression((eb) =>
          eb
            .selectFrom(["link", "ip_hit"])
            .select(countOne(v.link_bucket, v.window_start))
            // Typed fragments: the bound limit as the counter's int; the link's kind as the text `fits` names it
            // by, its ':variable'/':fixed' inline (a PreparedStatement binds only its values).
            .where("ip_hit.attempts", "<=", sql<number>`${v.per_ip}::int`)
            .where(sql<boolean>`link.mode || case when link.fixed_amount is null then ':variable' else ':fixed' end = any(${v.fits}::text[])`),
        )
        .onConflict(countAgain)
        .returning("link_rate_limits.attempts"),
    )
    .selectFrom("link")
    .selectAll("link")
    .select((eb) => [
      // Evaluated during the statement, so it applies to the statement's own commit (and then lapses);
      // one typed fragment, as its setting name must be inline SQL (a PreparedStatement binds only its values).
      sql<string>`set_config('synchronous_commit', coalesce(${v.synchronous_commit}::text, current_setting('synchronous_commit')), true)`.as("commit_mode"),
      eb.selectFrom("ip_hit").select("ip_hit.attempts").as("ip_attempts"),
      eb.selectFrom("link_hit").select("link_hit.attempts").as("link_counted"),
      // The statement's snapshot: the count before it (its own upsert is not visible to it).
      eb
        .selectFrom("link_rate_limits")
        .select("link_rate_limits.attempts")
        .where("link_rate_limits.bucket", "=", v.link_bucket)
        .where("link_rate_limits.window_start", "=", v.window_start)
        .as("link_before"),
    ]),
);

const LOOKUP = new PreparedStatement<{ link_id: string }, LinkRow>((v) => linkWithMerchant(v));

/** One pay attempt: which link, from whom, and which link kinds its body fits (none when it is malformed). */
export interface PayAttempt {
  linkId: string;
  clientIp: string;
  fits: readonly LinkKind[];
}

/**
 * Reads the link and counts this pay attempt against the limit, in one statement. Undefined when
 * the link never existed; `rate_limited` (with the seconds until the window admits again) when this
 * attempt is over the limit for its client, or its link has no attempt left in this window.
 */
export async function admitPayAttempt(config: Pick<CoreConfig, "linkRateLimit">, tx: Tx, attempt: PayAttempt, now: Date): Promise<LinkRow | undefined> {
  if (!isId("link", attempt.linkId)) return undefined;
  const limit = config.linkRateLimit;
  if (!limit) return (await LOOKUP.run(db(tx), { link_id: attempt.linkId })).rows[0];
  const windowStart = Math.floor(now.getTime() / limit.windowMs) * limit.windowMs;
  const { rows } = await ADMIT.run(db(tx), {
    synchronous_commit: tx.isInTransaction() ? null : "off",
    link_id: attempt.linkId,
    ip_bucket: `ip:${clientKey(attempt.clientIp)}`,
    link_bucket: `link:${attempt.linkId}`,
    window_start: new Date(windowStart),
    per_ip: limit.perIp,
    fits: [...attempt.fits],
  });
  const row = rows[0];
  if (!row) return undefined;
  const { ip_attempts, link_counted, link_before, commit_mode: _, ...link } = row;
  const overIp = ip_attempts > limit.perIp;
  // Not counted on the link (malformed): refused only when the link has used up its window already.
  const overLink = link_counted !== null ? link_counted > limit.perLink : (link_before ?? 0) >= limit.perLink;
  if (overIp || overLink) {
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
