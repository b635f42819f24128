import type { CoreConfig, JobPolicy } from "../config.ts";
import type { CoreDeps } from "../domain/deps.ts";
import type { Tally } from "./claim.ts";
import { pastRetention, purgeClaimed } from "./purge-claimed.ts";

/** Request logs older than REQUEST_LOG_RETENTION (request_logs_created_idx). */
export const expiredRequestLogs = (retentionMs: number) => pastRetention("purge_request_logs", "request_logs", retentionMs);

/** Deletes one claimed batch of request logs past their retention. */
export function purgeExpiredRequestLogs(deps: CoreDeps & { config: Pick<CoreConfig, "requestLogs"> }, policy: Pick<JobPolicy, "batch">): Promise<Tally> {
  return purgeClaimed(deps, expiredRequestLogs(deps.config.requestLogs.retentionMs), ["seq"], policy);
}
