import { sql } from "kysely";
import { clientKey } from "../../../proto/client-address.ts";
import type { CoreConfig } from "../config.ts";
import { db } from "../db/orm.ts";
import { PreparedStatement, statementBuilder } from "../db/prepared.ts";
import { DomainError } from "./errors.ts";
import { isId } from "./ids.ts";
import type { Tx } from "./unit-of-work.ts";
import { countAgain, countOne } from "./rate-limit-counter.ts";

// CARD_SUBMIT_LIMIT: the hosted page's card form is the one place a card number reaches the
// processor, so it is what a card tester walks a list of numbers through, one payment after
// another (a decline fails the payment; the link limit lets a client make 10 a minute). Every
// submit counts before the processor is called, whatever it answers (declines, challenges and
// processor errors included), against its client (an IPv4 address, an IPv6 /64) and its payment,
// in fixed windows kept in PostgreSQL so the limit holds across every facade and core.
//
// As for the link limit: one statement, outside any transaction and committed asynchronously (a
// submit waits for the outcome's synchronous commit anyway); a submit refused by its client's limit
// does not count against the payment, so one client cannot use up a payment another customer
// holds; ids of payments that never existed count nowhere (the submit then answers unknown_payment).
// The counters share link_rate_limits with the link limit, under their own bucket prefixes.

type AdmitValues = {
  /** 'off' when the statement is its own transaction; inside a caller's transaction its setting is left alone. */
  synchronous_commit: string | null;
  payment_id: string;
  /** null: the caller has no client address (an internal caller); counted per payment only. */
  ip_bucket: string | null;
  payment_bucket: string;
  window_start: Date;
  per_ip: number;
};

interface AdmitRow {
  commit_mode: string;
  found: boolean;
  ip_attempts: number | null;
  payment_attempts: number | null;
}

const ADMIT = new PreparedStatement<AdmitValues, AdmitRow>((v) =>
  statementBuilder
    .with("payment", (qc) => qc.selectFrom("payments").select("payments.id").where("payments.id", "=", v.payment_id))
    .with("ip_hit", (qc) =>
      qc
        .insertInto("link_rate_limits")
        .columns(["bucket", "window_start", "attempts"])
        .expression((eb) =>
          eb
            .selectFrom("payment")
            .select(countOne(v.ip_bucket!, v.window_start))
            // Raw: a bound value in a condition needs its type named (a PreparedStatement binds only values).
            .where(sql<boolean>`${v.ip_bucket}::text is not null`),
        )
        .onConflict(countAgain)
        .returning("link_rate_limits.attempts"),
    )
    // Reads ip_hit, so the client's row is always locked before the payment's (no lock cycles).
    .with("payment_hit", (qc) =>
      qc
        .insertInto("link_rate_limits")
        .columns(["bucket", "window_start", "attempts"])
        .expression((eb) =>
          eb
            .selectFrom("payment")
            .select(countOne(v.payment_bucket, v.window_start))
            // Raw: reads the CTE ip_hit as a scalar with coalesce, and names the bound limit's type.
            .where(sql<boolean>`coalesce((select attempts from ip_hit), 0) <= ${v.per_ip}::int`),
        )
        .onConflict(countAgain)
        .returning("link_rate_limits.attempts"),
    )
    .selectNoFrom((eb) => [
      // Evaluated during the statement, so it applies to the statement's own commit (and then lapses).
      sql<string>`set_config('synchronous_commit', coalesce(${v.synchronous_commit}::text, current_setting('synchronous_commit')), true)`.as("commit_mode"),
      eb.exists(eb.selectFrom("payment").select("payment.id")).as("found"),
      eb.selectFrom("ip_hit").select("ip_hit.attempts").as("ip_attempts"),
      eb.selectFrom("payment_hit").select("payment_hit.attempts").as("payment_attempts"),
    ]),
);

/**
 * Counts one card submit on `paymentId` from `clientIp` (none: an internal caller, counted per
 * payment only), refusing it with `rate_limited` (and the seconds until the window admits again)
 * when its client or its payment is over CARD_SUBMIT_LIMIT. Unknown payments pass uncounted.
 */
export async function admitCardSubmit(
  config: Pick<CoreConfig, "cardSubmitLimit">,
  tx: Tx,
  paymentId: string,
  clientIp: string | undefined,
  now: Date,
): Promise<void> {
  const limit = config.cardSubmitLimit;
  if (!limit || !isId("pay", paymentId)) return;
  const windowStart = Math.floor(now.getTime() / limit.windowMs) * limit.windowMs;
  const { rows } = await ADMIT.run(db(tx), {
    synchronous_commit: tx.isInTransaction() ? null : "off",
    payment_id: paymentId,
    ip_bucket: clientIp ? `card-ip:${clientKey(clientIp)}` : null,
    payment_bucket: `card-payment:${paymentId}`,
    window_start: new Date(windowStart),
    per_ip: limit.perIp,
  });
  const row = rows[0]!;
  if (!row.found) return;
  const overIp = (row.ip_attempts ?? 0) > limit.perIp;
  if (overIp || (row.payment_attempts ?? 0) > limit.perPayment) {
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + limit.windowMs - now.getTime()) / 1000));
    throw new DomainError(
      "rate_limited",
      overIp ? "Too many card attempts from this address; retry later." : "Too many card attempts on this payment; retry later.",
      retryAfterSeconds,
    );
  }
}
