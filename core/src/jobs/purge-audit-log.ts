import type { CoreConfig, JobPolicy } from "../config.ts";
import type { CoreDeps } from "../domain/deps.ts";
import type { Tally, WorkQueue } from "./claim.ts";
import { pastRetention, purgeClaimed } from "./purge-claimed.ts";

/** Audit-log rows older than AUDIT_RETENTION (audit_log_created_idx). */
export const expiredAuditEntries = (retentionMs: number) => pastRetention("purge_audit_log", "audit_log", retentionMs);

/** Deletes one claimed batch of audit rows past their retention. */
export function purgeExpiredAuditEntries(deps: CoreDeps & { config: Pick<CoreConfig, "dashboard"> }, policy: Pick<JobPolicy, "batch">): Promise<Tally> {
  return purgeClaimed(deps, expiredAuditEntries(deps.config.dashboard.auditRetentionMs), ["seq"], policy);
}

/**
 * Dashboard sessions past their absolute timeout (dashboard_sessions_expires_idx): nobody can use
 * them again. Idle ones are deleted when next presented, or here once their absolute time is past.
 */
export const endedSessions: WorkQueue<"dashboard_sessions", { id: string }> = {
  job: "purge_dashboard_sessions",
  table: "dashboard_sessions",
  due: (rows, now) => rows.select("id").where("expires_at", "<=", now).orderBy("expires_at"),
};

export function purgeEndedSessions(deps: CoreDeps, policy: Pick<JobPolicy, "batch">): Promise<Tally> {
  return purgeClaimed(deps, endedSessions, ["id"], policy);
}

/** Invite and reset tokens past their lifetime (used or not): nobody can use them again. */
export const spentUserTokens: WorkQueue<"dashboard_user_tokens", { digest: string }> = {
  job: "purge_dashboard_user_tokens",
  table: "dashboard_user_tokens",
  due: (rows, now) => rows.select("digest").where("expires_at", "<=", now).orderBy("expires_at"),
};

export function purgeSpentUserTokens(deps: CoreDeps, policy: Pick<JobPolicy, "batch">): Promise<Tally> {
  return purgeClaimed(deps, spentUserTokens, ["digest"], policy);
}
