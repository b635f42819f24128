import type { CoreDeps } from "../domain/deps.ts";
import type { ClaimPolicy, Tally, WorkQueue } from "./claim.ts";
import { purgeClaimed } from "./purge-claimed.ts";

/** Rate-limit counters (LINK_RATE_LIMIT, CARD_SUBMIT_LIMIT, DASHBOARD_LOGIN_LIMIT) of windows that have ended (link_rate_limits_window_idx). */
export function pastRateLimitWindows(windowMs: number): WorkQueue<"link_rate_limits", { bucket: string; window_start: Date }> {
  return {
    job: "purge_link_rate_limits",
    table: "link_rate_limits",
    due: (rows, now) =>
      rows
        .select(["bucket", "window_start"])
        .where("window_start", "<=", new Date(now.getTime() - windowMs))
        .orderBy("window_start"),
  };
}

/**
 * Deletes one claimed batch of counters no attempt can touch again. The table holds every limit's
 * counters without saying whose, so a row goes once the longest window is over: purged after a
 * shorter one, a card or sign-in counter would be reset while its window still runs.
 */
export function purgePastRateLimitWindows(deps: CoreDeps, policy: ClaimPolicy): Promise<Tally> {
  const { linkRateLimit, cardSubmitLimit, dashboard } = deps.config;
  const windowMs = Math.max(linkRateLimit?.windowMs ?? 0, cardSubmitLimit?.windowMs ?? 0, dashboard.loginLimit?.windowMs ?? 0);
  return purgeClaimed(deps, pastRateLimitWindows(windowMs), ["bucket", "window_start"], policy);
}
