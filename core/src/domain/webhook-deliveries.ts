// The webhook delivery model (DESIGN §4 "Webhooks", "Delivery model"): one delivery row per
// (event, subscribed endpoint), recorded when a dispatcher takes the event from JetStream; attempts
// are claimed from those rows with a lease (core/src/jobs/claim.ts) and their outcomes recorded
// here, which schedules the next attempt (proto/webhook-retry.ts) or ends the delivery.
import { sql } from "kysely";
import { safeText } from "../../../proto/response-excerpt.ts";
import { db } from "../db/orm.ts";
import type { DeliveryCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { retryDelayMs } from "../../../proto/webhook-retry.ts";
import { atomically, withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";

export type DeliveryStatus = "pending" | "succeeded" | "failed";
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ["pending", "succeeded", "failed"];

export interface RecordedDeliveries {
  created: number;
  /** Event ids this core's event store does not hold: purged by retention, or another deployment's. */
  unknownEventIds: string[];
}

/**
 * Records one pending delivery, due now, per enabled endpoint of each event's merchant and mode
 * that subscribes to its type and existed when the event happened (a test event: only the endpoint
 * it names, whatever that one subscribes to). One statement; a delivery that
 * exists already is left alone, so a JetStream message delivered twice creates nothing new.
 */
export async function recordDeliveries(deps: CoreDeps, tx: Tx, _caller: DeliveryCaller, eventIds: readonly string[]): Promise<Changes<RecordedDeliveries>> {
  if (eventIds.length === 0) return withoutEvents({ created: 0, unknownEventIds: [] });
  const now = deps.now();
  // Raw: rows from a bound array (unnest) joined to the subscribed endpoints; the one insert decides how
  // many deliveries an event gets and makes their ids, which the builder cannot write.
  const { rows } = await sql<{ created: string; known: string[] }>`
    with events as (
      select id, type, merchant_id, mode, created_at, endpoint_id from outbox_events where id = any(${[...eventIds]}::text[])
    ), inserted as (
      insert into webhook_deliveries (id, event_id, event_type, endpoint_id, merchant_id, mode, status, attempt_count, round_attempts,
                                      next_attempt_at, created_at, updated_at)
      select 'dlv_' || left(encode(sha256(convert_to(gen_random_uuid()::text || e.id, 'UTF8')), 'hex'), 24),
             ev.id, ev.type, e.id, ev.merchant_id, ev.mode, 'pending', 0, 0, ${now}, ${now}, ${now}
      from events ev
      join webhook_endpoints e on e.merchant_id = ev.merchant_id and e.mode = ev.mode and e.enabled
        and e.created_at <= ev.created_at
        and (ev.endpoint_id is null and (cardinality(e.enabled_events) = 0 or ev.type = any(e.enabled_events)) or e.id = ev.endpoint_id)
      on conflict (event_id, endpoint_id) do nothing
      returning 1
    )
    select (select count(*) from inserted) as created, array(select id from events) as known`.execute(db(tx));
  const known = new Set(rows[0]!.known);
  return withoutEvents({ created: Number(rows[0]!.created), unknownEventIds: eventIds.filter((id) => !known.has(id)) });
}

/**
 * The body of every attempt of an event: its outbox envelope as stored, read as text
 * (`storedEnvelope`, outbox.ts). The column is json, which keeps the very text written, so every
 * attempt, `listen` and the relay's NATS message carry the same bytes, and none of them parses the
 * envelope only to serialize it again.
 */
export function eventBody(storedEnvelope: string): Buffer {
  return Buffer.from(storedEnvelope);
}

export interface AttemptOutcome {
  deliveryId: string;
  attemptedAt: Date;
  /** Absent when no response came (refused, timed out, not a public address). */
  httpStatus?: number | undefined;
  error?: string | undefined;
  latencyMs: number;
  responseExcerpt: string;
  retryAfterMs?: number | undefined;
}

export const isSuccess = (status: number | undefined): boolean => status !== undefined && status >= 200 && status <= 299;

/** An outcome the core did not record, and why (a safe message: it may end up in an attempt's error). */
export interface RejectedAttempt {
  /** Its position in the outcomes given. */
  index: number;
  deliveryId: string;
  reason: string;
}

export interface RecordedAttempts {
  /** Outcomes recorded (those of deliveries this core does not hold are dropped silently). */
  recorded: number;
  rejected: RejectedAttempt[];
}

/** Why an outcome cannot be recorded as given, if it cannot. */
function invalidReason(outcome: AttemptOutcome): string | undefined {
  const at = outcome.attemptedAt.getTime();
  if (!(at >= 0 && at < Date.UTC(10_000, 0, 1))) return "attempted_at must be an ISO 8601 time.";
  if (!Number.isFinite(outcome.latencyMs)) return "latency_ms must be a number.";
  if (outcome.retryAfterMs !== undefined && !Number.isFinite(outcome.retryAfterMs)) return "retry_after_ms must be a number.";
  return undefined;
}

/**
 * Records attempt outcomes (see recordOutcomes). A receiver writes the excerpt, so text is cleaned
 * before it is stored, whoever sent it; and one outcome that cannot be recorded never holds back the
 * others: the batch is recorded in one savepoint, and if that fails, each outcome in its own, so
 * only the failing ones are rejected (and reported, for the dispatcher to retry or record as failed).
 */
export async function recordAttempts(deps: CoreDeps, tx: Tx, _caller: DeliveryCaller, outcomes: readonly AttemptOutcome[]): Promise<Changes<RecordedAttempts>> {
  const rejected: RejectedAttempt[] = [];
  const valid: Array<{ index: number; outcome: AttemptOutcome }> = [];
  outcomes.forEach((outcome, index) => {
    const reason = invalidReason(outcome);
    if (reason) rejected.push({ index, deliveryId: outcome.deliveryId, reason });
    else
      valid.push({
        index,
        outcome: { ...outcome, error: outcome.error === undefined ? undefined : safeText(outcome.error), responseExcerpt: safeText(outcome.responseExcerpt) },
      });
  });
  let recorded = 0;
  try {
    recorded = await atomically(tx, async (batch) =>
      withoutEvents(
        await recordOutcomes(
          deps,
          batch,
          valid.map((v) => v.outcome),
        ),
      ),
    );
  } catch (err) {
    if (valid.length > 1) deps.log.warn({ err, attempts: valid.length }, "recording a batch of attempts failed; recording them one by one");
    for (const { index, outcome } of valid) {
      try {
        recorded += await atomically(tx, async (row) => withoutEvents(await recordOutcomes(deps, row, [outcome])));
      } catch (rowErr) {
        deps.log.error({ err: rowErr, delivery_id: outcome.deliveryId }, "an attempt could not be recorded; rolled back alone");
        const reason = rowErr instanceof DomainError ? rowErr.message : "The core could not store this attempt (internal error).";
        rejected.push({ index, deliveryId: outcome.deliveryId, reason });
      }
    }
  }
  return withoutEvents({ recorded, rejected: rejected.sort((a, b) => a.index - b.index) });
}

/**
 * Records outcomes in one go: every attempt is kept; a 2xx ends its delivery as succeeded, anything
 * else schedules the next attempt from WEBHOOK_RETRY_SCHEDULE or, after the last one, fails the
 * delivery. A delivery already ended (a duplicate attempt after an expired lease) stays as it is.
 * An endpoint whose attempts have only failed for WEBHOOK_DISABLE_AFTER is disabled.
 */
async function recordOutcomes(deps: CoreDeps, tx: Tx, outcomes: readonly AttemptOutcome[]): Promise<number> {
  if (outcomes.length === 0) return 0;
  const now = deps.now();
  const current = await db(tx)
    .selectFrom("webhook_deliveries")
    .select(["id", "endpoint_id", "status", "round_attempts"])
    .where(
      "id",
      "in",
      outcomes.map((outcome) => outcome.deliveryId),
    )
    .forUpdate()
    .execute();
  const byId = new Map(current.map((row) => [row.id, row]));
  const known = outcomes.filter((outcome) => byId.has(outcome.deliveryId));
  if (known.length === 0) return 0;
  await db(tx)
    .insertInto("webhook_attempts")
    .values(
      known.map((outcome) => ({
        delivery_id: outcome.deliveryId,
        endpoint_id: byId.get(outcome.deliveryId)!.endpoint_id,
        attempted_at: outcome.attemptedAt,
        succeeded: isSuccess(outcome.httpStatus),
        http_status: outcome.httpStatus ?? null,
        error: outcome.error ?? null,
        latency_ms: Math.max(0, Math.round(outcome.latencyMs)),
        response_excerpt: outcome.responseExcerpt,
      })),
    )
    .execute();

  // Several outcomes of one delivery in a batch apply in order.
  const next = new Map<string, { status: string; round: number; attempts: number; nextAt: Date | null; outcome: AttemptOutcome }>();
  for (const outcome of known) {
    const row = byId.get(outcome.deliveryId)!;
    const before = next.get(row.id) ?? { status: row.status, round: row.round_attempts, attempts: 0, nextAt: null, outcome };
    const round = before.round + 1;
    let status = before.status;
    let nextAt: Date | null = null;
    if (status === "pending") {
      if (isSuccess(outcome.httpStatus)) status = "succeeded";
      else {
        const delay = retryDelayMs(deps.config.webhookRetryScheduleMs, round, outcome.retryAfterMs);
        if (delay === null) status = "failed";
        else nextAt = new Date(now.getTime() + delay);
      }
    }
    next.set(row.id, { status, round, attempts: before.attempts + 1, nextAt, outcome });
  }
  const updates = [...next.entries()];
  // Raw: an update from rows of bound arrays (`unnest(…) as v(…)`), which the builder cannot write.
  await sql`
    update webhook_deliveries d set
      status = v.status, round_attempts = v.round, attempt_count = d.attempt_count + v.attempts,
      next_attempt_at = v.next_at, claimed_until = null, last_attempt_at = v.attempted_at,
      last_http_status = v.http_status, last_error = v.error, updated_at = ${now}
    from unnest(${updates.map(([id]) => id)}::text[], ${updates.map(([, u]) => u.status)}::text[], ${updates.map(([, u]) => u.round)}::int[],
                ${updates.map(([, u]) => u.attempts)}::int[], ${updates.map(([, u]) => u.nextAt?.toISOString() ?? null)}::timestamptz[],
                ${updates.map(([, u]) => u.outcome.attemptedAt.toISOString())}::timestamptz[], ${updates.map(([, u]) => u.outcome.httpStatus ?? null)}::int[],
                ${updates.map(([, u]) => u.outcome.error ?? null)}::text[])
      as v(id, status, round, attempts, next_at, attempted_at, http_status, error)
    where d.id = v.id`.execute(db(tx));

  const failingEndpoints = [...new Set(known.filter((outcome) => !isSuccess(outcome.httpStatus)).map((outcome) => byId.get(outcome.deliveryId)!.endpoint_id))];
  if (failingEndpoints.length > 0) await disableFailingEndpoints(deps, tx, failingEndpoints, now);
  return known.length;
}

/** Disables those of `endpointIds` whose every attempt since WEBHOOK_DISABLE_AFTER ago (and since their last success) failed. */
async function disableFailingEndpoints(deps: CoreDeps, tx: Tx, endpointIds: string[], now: Date): Promise<void> {
  const since = new Date(now.getTime() - deps.config.webhooks.disableAfterMs);
  // Raw: correlated subqueries over the attempts and a formatted reason in the SET: longer as builder fragments than as SQL.
  const disabled = await sql<{ id: string }>`
    update webhook_endpoints e set enabled = false, updated_at = ${now},
      disabled_reason = 'Every delivery attempt has failed since ' || to_char(a.first_failure at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '.'
    from (
      select e2.id, (select min(f.attempted_at) from webhook_attempts f
                     where f.endpoint_id = e2.id and not f.succeeded
                       and f.attempted_at > coalesce((select max(s.attempted_at) from webhook_attempts s where s.endpoint_id = e2.id and s.succeeded), '-infinity')
                    ) as first_failure
      from webhook_endpoints e2 where e2.id = any(${endpointIds}::text[]) and e2.enabled
    ) a
    where e.id = a.id and a.first_failure <= ${since}
    returning e.id`.execute(db(tx));
  for (const row of disabled.rows) deps.log.warn({ endpoint_id: row.id }, "webhook endpoint disabled: it has only failed for WEBHOOK_DISABLE_AFTER");
}

/** Hands claimed deliveries back without an attempt (a dispatcher stopping): due again at once, on any dispatcher. */
export async function releaseDeliveries(deps: CoreDeps, tx: Tx, _caller: DeliveryCaller, ids: readonly string[]): Promise<Changes<number>> {
  if (ids.length === 0) return withoutEvents(0);
  const result = await db(tx)
    .updateTable("webhook_deliveries")
    .set({ claimed_until: null, updated_at: deps.now() })
    .where("id", "in", [...ids])
    .where("status", "=", "pending")
    .executeTakeFirst();
  return withoutEvents(Number(result.numUpdatedRows));
}
