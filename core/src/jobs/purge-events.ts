import type { CoreConfig, JobPolicy } from "../config.ts";
import type { CoreDeps } from "../domain/deps.ts";
import type { Tally, WorkQueue } from "./claim.ts";
import { purgeClaimed } from "./purge-claimed.ts";

/**
 * Published events older than EVENT_RETENTION (outbox_events_retention_idx). An event still in the
 * relay's queue (outbox_pending) is never purged, however old: it has not left the core yet.
 */
export function expiredEvents(retentionMs: number): WorkQueue<"outbox_events", { seq: string }> {
  return {
    job: "purge_events",
    table: "outbox_events",
    due: (rows, now) =>
      rows
        .select("seq")
        .where((eb) => eb.not(eb.exists(eb.selectFrom("outbox_pending").select("seq").whereRef("outbox_pending.seq", "=", "outbox_events.seq"))))
        .where("created_at", "<=", new Date(now.getTime() - retentionMs))
        .orderBy("created_at"),
  };
}

/** Deletes one claimed batch of events past their retention: they leave GET /v1/events and replay with it. */
export function purgeExpiredEvents(deps: CoreDeps & { config: Pick<CoreConfig, "eventRetentionMs"> }, policy: Pick<JobPolicy, "batch">): Promise<Tally> {
  return purgeClaimed(deps, expiredEvents(deps.config.eventRetentionMs), ["seq"], policy);
}
