import type { CoreConfig, JobPolicy } from "../config.ts";
import { db } from "../db/orm.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { handleClaimed, type Tally, type WorkQueue } from "./claim.ts";

/**
 * Published events older than EVENT_RETENTION (outbox_events_retention_idx). An unpublished row is
 * never purged, however old: it has not left the core yet.
 */
export function expiredEvents(retentionMs: number): WorkQueue<"outbox_events", { seq: string }> {
  return {
    job: "purge_events",
    table: "outbox_events",
    due: (rows, now) =>
      rows
        .select("seq")
        .where("published_at", "is not", null)
        .where("created_at", "<=", new Date(now.getTime() - retentionMs))
        .orderBy("created_at"),
  };
}

/** Deletes one claimed batch of events past their retention: they leave GET /v1/events and replay with it. */
export function purgeExpiredEvents(deps: CoreDeps & { config: Pick<CoreConfig, "eventRetentionMs"> }, policy: Pick<JobPolicy, "batch">): Promise<Tally> {
  return handleClaimed(deps, expiredEvents(deps.config.eventRetentionMs), policy, async (tx, rows) => {
    await db(tx)
      .deleteFrom("outbox_events")
      .where(
        "seq",
        "in",
        rows.map((row) => row.seq),
      )
      .execute();
    return { value: { purged: rows.length }, events: [] };
  });
}
