import { clientKey } from "../../../proto/client-address.ts";
import type { CoreConfig } from "../config.ts";
import { db } from "../db/orm.ts";
import { DomainError } from "./errors.ts";
import { isId } from "./ids.ts";
import { admitInBatch } from "./link-admit-batch.ts";
import { ADMIT, LOOKUP, type AdmitValues } from "./link-admit-statement.ts";
import type { LinkKind } from "./link-input.ts";
import type { LinkRow } from "./link-view.ts";
import type { Tx } from "./unit-of-work.ts";

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
export async function admitPayAttempt(
  config: Pick<CoreConfig, "linkRateLimit" | "linkAdmitBatch">,
  tx: Tx,
  attempt: PayAttempt,
  now: Date,
): Promise<LinkRow | undefined> {
  if (!isId("link", attempt.linkId)) return undefined;
  const limit = config.linkRateLimit;
  if (!limit) return (await LOOKUP.run(db(tx), { link_id: attempt.linkId })).rows[0];
  const windowStart = Math.floor(now.getTime() / limit.windowMs) * limit.windowMs;
  const inTransaction = tx.isInTransaction();
  const values: AdmitValues = {
    synchronous_commit: inTransaction ? null : "off",
    link_id: attempt.linkId,
    ip_bucket: `ip:${clientKey(attempt.clientIp)}`,
    link_bucket: `link:${attempt.linkId}`,
    window_start: new Date(windowStart),
    per_ip: limit.perIp,
    fits: [...attempt.fits],
  };
  // Attempts outside a transaction (a pay) are counted together with those arriving meanwhile (link-admit-batch.ts).
  const row = config.linkAdmitBatch.on && !inTransaction ? await admitInBatch(config, tx, values) : (await ADMIT.run(db(tx), values)).rows[0];
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
