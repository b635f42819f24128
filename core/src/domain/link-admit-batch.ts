import { sql } from "kysely";
import type { CoreConfig } from "../config.ts";
import { db } from "../db/orm.ts";
import { PreparedStatement, statementBuilder } from "../db/prepared.ts";
import { aloneOrTogether, GroupCommit } from "./group-commit.ts";
import { ADMIT, linksWithMerchants, type AdmitRow, type AdmitValues } from "./link-admit-statement.ts";
import type { Tx } from "./unit-of-work.ts";

// Group commit of the pay limit's count (core/README.md "Group commit"): pay attempts that arrive
// while a count is in flight wait for it, then are counted together by one statement over arrays.
// Each attempt gets back exactly what its own statement would have, had the attempts run one after
// another in arrival order: its client's count and its link's count include the batch's earlier
// attempts on the same buckets. A bucket hit by several attempts is upserted once, by their number
// (one statement cannot update a row twice), and the buckets are locked in one order (every client
// bucket, then every link bucket, each sorted), so two cores' batches never wait on each other's.
// An idle queue goes at once rather than wait for company (LINK_ADMIT_BATCH_WAIT, 0 unless set): a
// pay waits for its count and then for its creation batch, and a wait here would delay both.

type BatchAdmitValues = {
  link_ids: string[];
  ip_buckets: string[];
  window_starts: Date[];
  /** Each attempt's `fits` joined with ',' (unnest would flatten an array of arrays). */
  fits: string[];
  per_ip: number;
};

/** A row per attempt, in order: the link's columns (id included) are null when the link never existed. */
type BatchAdmitRow = Omit<AdmitRow, "id"> & { id: string | null };

const BATCH_ADMIT = new PreparedStatement<BatchAdmitValues, BatchAdmitRow>((v) => {
  const links = linksWithMerchants().where("links.id", "in", sql<string>`(select link_id from r)`);
  const kind = sql`link.mode || case when link.fixed_amount is null then ':variable' else ':fixed' end`;
  const statement = sql<BatchAdmitRow>`with r as (
  select * from unnest(${v.link_ids}::text[], ${v.ip_buckets}::text[], ${v.window_starts}::timestamptz[], ${v.fits}::text[])
    with ordinality as r(link_id, ip_bucket, window_start, fits, ord)
),
link as ${links},
ip_attempt as (
  select r.ord, r.link_id, r.ip_bucket, r.window_start, r.fits,
    row_number() over (partition by r.ip_bucket, r.window_start order by r.ord) as nth,
    count(*) over (partition by r.ip_bucket, r.window_start) as n
  from r join link on link.id = r.link_id
),
ip_hit as (
  insert into link_rate_limits (bucket, window_start, attempts)
  select ip_bucket, window_start, count(*)::int from ip_attempt group by ip_bucket, window_start order by ip_bucket, window_start
  on conflict (bucket, window_start) do update set attempts = link_rate_limits.attempts + excluded.attempts
  returning link_rate_limits.bucket, link_rate_limits.window_start, link_rate_limits.attempts
),
ip_count as (
  select ip_attempt.ord, ip_attempt.link_id, ip_attempt.window_start, ip_attempt.fits, (ip_hit.attempts - ip_attempt.n + ip_attempt.nth)::int as attempts
  from ip_attempt join ip_hit on ip_hit.bucket = ip_attempt.ip_bucket and ip_hit.window_start = ip_attempt.window_start
),
link_attempt as (
  select ip_count.ord, ip_count.link_id, ip_count.window_start,
    row_number() over (partition by ip_count.link_id, ip_count.window_start order by ip_count.ord) as nth,
    count(*) over (partition by ip_count.link_id, ip_count.window_start) as n
  from ip_count join link on link.id = ip_count.link_id
  where ip_count.attempts <= ${v.per_ip}::int and ${kind} = any(string_to_array(ip_count.fits, ','))
),
link_hit as (
  insert into link_rate_limits (bucket, window_start, attempts)
  select 'link:' || link_id, window_start, count(*)::int from link_attempt group by link_id, window_start order by 'link:' || link_id, window_start
  on conflict (bucket, window_start) do update set attempts = link_rate_limits.attempts + excluded.attempts
  returning link_rate_limits.bucket, link_rate_limits.window_start, link_rate_limits.attempts
),
link_count as (
  select link_attempt.ord, (link_hit.attempts - link_attempt.n + link_attempt.nth)::int as attempts
  from link_attempt join link_hit on link_hit.bucket = 'link:' || link_attempt.link_id and link_hit.window_start = link_attempt.window_start
)
select link.*,
  set_config('synchronous_commit', 'off', true) as commit_mode,
  ip_count.attempts as ip_attempts,
  link_count.attempts as link_counted,
  -- Not counted on the link (rare: read only then, by its key): its count before this attempt, i.e. the
  -- statement's snapshot (which does not see the upserts above) plus the batch's earlier attempts counted there.
  case when link.id is not null and link_count.attempts is null then
    coalesce((select attempts from link_rate_limits where bucket = 'link:' || r.link_id and window_start = r.window_start), 0)
      + (select count(*) from link_attempt where link_attempt.link_id = r.link_id and link_attempt.window_start = r.window_start and link_attempt.ord < r.ord)::int
  end as link_before
from r
left join link on link.id = r.link_id
left join ip_count on ip_count.ord = r.ord
left join link_count on link_count.ord = r.ord
order by r.ord`;
  // Raw, not wrapped in a builder: a statement whose CTEs write must be the top level.
  return { compile: () => statement.compile(statementBuilder) };
});

/** The sizes of the admission batches run so far (index: size). */
export const admitBatchSizes: number[] = [];

/** Admission batches that failed, whose attempts then ran one statement each (a deadlock between cores; anything else is a bug). */
export const admitBatchFailures = { count: 0 };

interface Queued {
  /** The attempt's own unit of work (outside any transaction); a batch runs in its first attempt's. */
  tx: Tx;
  values: AdmitValues;
}

type Admitted = AdmitRow | undefined;

type BatchConfig = Pick<CoreConfig, "linkAdmitBatch">;

/** This core's admission queue: attempts on one bucket may share a batch (the statement counts them together), so it has no key. */
const admissionQueue = (config: BatchConfig) =>
  new GroupCommit<Queued, Admitted>({
    name: "admit_pay",
    policy: () => config.linkAdmitBatch,
    sizes: admitBatchSizes,
    run: aloneOrTogether({
      alone: async ({ tx, values }) => (await ADMIT.run(db(tx), values)).rows[0],
      together: async (batch) => {
        const { rows } = await BATCH_ADMIT.run(db(batch[0]!.tx), {
          link_ids: batch.map(({ values }) => values.link_id),
          ip_buckets: batch.map(({ values }) => values.ip_bucket),
          window_starts: batch.map(({ values }) => values.window_start),
          fits: batch.map(({ values }) => values.fits.join(",")),
          // One core's limit: the same for every attempt of its queue.
          per_ip: batch[0]!.values.per_ip,
        });
        return rows.map((row) => ({ ok: row.id === null ? undefined : (row as AdmitRow) }));
      },
      failures: admitBatchFailures,
    }),
  });

const queues = new WeakMap<BatchConfig, GroupCommit<Queued, Admitted>>();

/**
 * Counts one pay attempt (its own statement, outside any transaction) in the next admission batch
 * of this core (`config`): the row its own ADMIT would have returned, undefined when the link never existed.
 */
export function admitInBatch(config: BatchConfig, tx: Tx, values: AdmitValues): Promise<Admitted> {
  let queue = queues.get(config);
  if (!queue) queues.set(config, (queue = admissionQueue(config)));
  return queue.submit({ tx, values });
}
