import type { CoreConfig, JobPolicy } from "../config.ts";
import type { CoreDeps } from "../domain/deps.ts";
import type { Tally, WorkQueue } from "./claim.ts";
import { purgeClaimed } from "./purge-claimed.ts";

/** Request logs older than REQUEST_LOG_RETENTION (request_logs_created_idx). */
export function expiredRequestLogs(retentionMs: number): WorkQueue<"request_logs", { seq: string }> {
  return {
    job: "purge_request_logs",
    table: "request_logs",
    due: (rows, now) =>
      rows
        .select("seq")
        .where("created_at", "<=", new Date(now.getTime() - retentionMs))
        .orderBy("created_at"),
  };
}

/** Deletes one claimed batch of request logs past their retention. */
export function purgeExpiredRequestLogs(deps: CoreDeps & { config: Pick<CoreConfig, "requestLogs"> }, policy: Pick<JobPolicy, "batch">): Promise<Tally> {
  return purgeClaimed(deps, expiredRequestLogs(deps.config.requestLogs.retentionMs), ["seq"], policy);
}
