// The statement that counts one pay attempt against LINK_RATE_LIMIT and reads its link
// (link-rate-limit.ts says who pays for an attempt and why the commit is asynchronous);
// link-admit-batch.ts runs the same over arrays for attempts that arrive together.
import { sql } from "kysely";
import { PreparedStatement, statementBuilder } from "../db/prepared.ts";
import { LINK_COLUMNS, type LinkRow } from "./link-view.ts";
import { countAgain, countOne } from "./rate-limit-counter.ts";

export type AdmitValues = {
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

export interface AdmitRow extends LinkRow {
  commit_mode: string;
  ip_attempts: number;
  /** This attempt's count on the link, when it was counted there. */
  link_counted: number | null;
  /** The link's count before this statement, for an attempt not counted there. */
  link_before: number | null;
}

/** Links with their merchant's columns a pay needs (LinkRow). */
export const linksWithMerchants = () => statementBuilder.selectFrom("links").innerJoin("merchants", "merchants.id", "links.merchant_id").select(LINK_COLUMNS);

const linkWithMerchant = (v: { link_id: string }) => linksWithMerchants().where("links.id", "=", v.link_id);

export const ADMIT = new PreparedStatement<AdmitValues, AdmitRow>((v) =>
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

export const LOOKUP = new PreparedStatement<{ link_id: string }, LinkRow>((v) => linkWithMerchant(v));
