// The dispatchers' work queue: due webhook deliveries, leased through the claim mechanism
// (claim.ts) on a dispatcher's request (gRPC ClaimDueDeliveries, RecordAttempts) rather than on a
// timer. Leasing commits on its own, before the work: so it lives with the jobs, outside the domain,
// which only runs in the unit of work it is handed (webhook-deliveries.ts records the outcomes).
import { sql } from "kysely";
import { db } from "../db/orm.ts";
import type { DeliveryCaller } from "../domain/caller.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { type Tx } from "../domain/unit-of-work.ts";
import { storedEnvelope } from "../domain/outbox.ts";
import { eventBody, recordAttempts, type AttemptOutcome, type RejectedAttempt } from "../domain/webhook-deliveries.ts";
import { signingSecrets } from "../domain/webhook-endpoints.ts";
import { leaseStatement, type LeasedQueue } from "./claim.ts";

/**
 * Pending deliveries that are due, oldest first, taking from each enabled endpoint at most as many
 * as it has free slots (WEBHOOK_ENDPOINT_CONCURRENCY minus its deliveries leased right now), so a
 * hanging endpoint holds only its own slots and the claim never fills up with its backlog. The
 * per-endpoint walk reads webhook_deliveries_due_idx, a few rows per endpoint. The bound is exact
 * for one claimer; two claims racing may each see the same free slot. The walk's ids are an array
 * (`= any(array(…))`), not `in (…)`: over a backlog the planner has no statistics for yet (a burst,
 * before autovacuum's ANALYZE) it ran `in` as a semi join that walked again for every due delivery,
 * 36 ms a claim over 3 000 of them (claim-due-deliveries.test.ts).
 */
export function dueDeliveries(endpointConcurrency: number): LeasedQueue<"webhook_deliveries", "id", { id: string }> {
  return {
    job: "webhook_delivery",
    table: "webhook_deliveries",
    key: "id",
    due: (rows, now) =>
      rows
        .select("id")
        .where("status", "=", "pending")
        .where("next_attempt_at", "<=", now)
        .where(
          sql<boolean>`id = any(array(
          select d.id from webhook_endpoints e
          cross join lateral (
            select d.id from webhook_deliveries d
            where d.endpoint_id = e.id and d.status = 'pending' and d.next_attempt_at <= ${now}
              and (d.claimed_until is null or d.claimed_until <= ${now})
            order by d.next_attempt_at
            limit greatest(0, ${endpointConcurrency}::int - (
              select count(*) from webhook_deliveries f where f.endpoint_id = e.id and f.claimed_until > ${now}))
          ) d
          where e.enabled))`,
        )
        .orderBy("next_attempt_at"),
  };
}

export interface DueDelivery {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  mode: string;
  url: string;
  /** The envelope as sent on every attempt. */
  body: Buffer;
  /** The current secret, then the previous one while its rotation window lasts. */
  secrets: string[];
  /** The number of the attempt about to be made (1 for the first). */
  attempt: number;
  /** The traceparent stored with the event (outbox.ts), so the attempt joins its trace. */
  traceparent: string | null;
}

/** A leased delivery as the claim reads it (envelope: only on the first row of each event). */
interface ClaimedRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  mode: string;
  attempt_count: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  outbox_id: string | null;
  traceparent: string | null;
  envelope: string | null;
}

/** How many due deliveries a dispatcher asks for, and for how long it holds them. */
export interface DeliveryClaim {
  limit: number;
  leaseMs: number;
}

// A claim's bounds, whatever the dispatcher asks: at most this many deliveries, held at least this long.
const MAX_CLAIM = 1_000;
const MIN_LEASE_MS = 1_000;

/**
 * Leases up to `limit` due deliveries for `leaseMs` and returns what a dispatcher needs to send them.
 * A delivery whose event has been purged (retention) is failed here: there is nothing left to send.
 */
export async function claimDueDeliveries(deps: CoreDeps, tx: Tx, _caller: DeliveryCaller, { limit, leaseMs }: DeliveryClaim): Promise<DueDelivery[]> {
  const policy = { batch: Math.max(1, Math.min(limit, MAX_CLAIM)), leaseMs: Math.max(MIN_LEASE_MS, leaseMs) };
  const lease = leaseStatement(deps, dueDeliveries(deps.config.webhooks.endpointConcurrency), policy, tx);
  const now = deps.now();
  // One statement: the lease, and what the dispatcher needs of each leased delivery (the select sees
  // the rows as they were before the lease, which changed only claimed_until). Each event's envelope
  // comes once however many of its endpoints were claimed, as the text it was stored with, and
  // every endpoint is sent (and signs) the same bytes.
  const { rows } = await sql<ClaimedRow>`
    with leased as (${lease})
    select d.id, d.event_id, d.endpoint_id, d.mode, d.attempt_count, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at,
      o.id as outbox_id, o.traceparent, case when row_number() over (partition by d.event_id) = 1 then ${storedEnvelope("o.envelope")} end as envelope
    from leased
    join webhook_deliveries d on d.id = leased.id
    join webhook_endpoints e on e.id = d.endpoint_id
    left join outbox_events o on o.id = d.event_id
    order by d.next_attempt_at`.execute(db(tx));
  if (rows.length === 0) return [];
  const bodies = new Map<string, Buffer>();
  for (const row of rows) if (row.envelope !== null) bodies.set(row.event_id, eventBody(row.envelope));
  const purged = rows.filter((row) => row.outbox_id === null).map((row) => row.id);
  if (purged.length > 0) {
    await db(tx)
      .updateTable("webhook_deliveries")
      .set({ status: "failed", next_attempt_at: null, claimed_until: null, last_error: "The event is no longer kept (EVENT_RETENTION).", updated_at: now })
      .where("id", "in", purged)
      .execute();
  }
  return rows
    .filter((row) => row.outbox_id !== null)
    .map((row) => ({
      deliveryId: row.id,
      eventId: row.event_id,
      endpointId: row.endpoint_id,
      mode: row.mode,
      url: row.url,
      body: bodies.get(row.event_id)!,
      secrets: signingSecrets(row, now),
      attempt: row.attempt_count + 1,
      traceparent: row.traceparent,
    }));
}

/**
 * A dispatcher's report of its attempts, and its next claim in the same call: the outcomes are
 * recorded (in transactions of their own), then (when `claim.limit` > 0) due deliveries are claimed,
 * after that commit, so the slots the outcomes freed count as free. A failed claim does not fail
 * the call: the dispatcher would record the same attempts again; it claims on its own instead.
 */
export async function recordAttemptsThenClaim(
  deps: CoreDeps,
  tx: Tx,
  caller: DeliveryCaller,
  { outcomes, claim }: { outcomes: readonly AttemptOutcome[]; claim: DeliveryClaim },
): Promise<{ rejected: RejectedAttempt[]; deliveries: DueDelivery[] }> {
  // recordAttempts opens its own short transactions (the batch, else one per outcome): no outer one around them.
  const {
    value: { rejected },
  } = await recordAttempts(deps, tx, caller, outcomes);
  if (claim.limit <= 0) return { rejected, deliveries: [] };
  const deliveries = await claimDueDeliveries(deps, tx, caller, claim).catch((err: unknown) => {
    deps.log.warn({ err }, "claim after recording attempts failed");
    return [];
  });
  return { rejected, deliveries };
}
