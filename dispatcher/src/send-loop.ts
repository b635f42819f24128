// Sends due webhook attempts: claims them from the core with a lease (at most `concurrency` in
// flight here; the core bounds each endpoint over every dispatcher), POSTs each one independently,
// and records the outcomes in batches. No delivery waits for another: a hanging endpoint holds only
// the slots its own attempts occupy until their deadline.
//
// Whatever the core does, the loop neither spins nor stalls: every pass starts with a clear wake
// flag and either makes a core call or waits on a timer; a failing core is called again only after
// a bounded backoff, and nobody waits while holding the claim; an outcome the core will not record
// is retried alone and, if it keeps failing, recorded as a failed attempt, so it never blocks others.
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import { type CallMeta, type CoreClient } from "../../proto/core-client.ts";
import { CoreError } from "../../proto/core-error.ts";
import { modeCodec } from "../../proto/enums.ts";
import type { AttemptResult, DueDelivery, RecordAttemptsResponse } from "../../proto/gen/paytami/v1/delivery.ts";
import type { Logger } from "../../proto/runtime/logger.ts";
import { Backoff } from "./backoff.ts";
import type { DispatcherConfig } from "./config.ts";
import { sendWebhook, type WebhookOutcome } from "../../proto/send-webhook.ts";
import { webhookDestinations } from "../../proto/public-address.ts";
import { contextOf, SpanKind, SpanStatusCode, startSpan, tracingOn, untraced, withSpan } from "../../proto/runtime/spans.ts";

/** The core calls the send loop makes: the core client's DeliveryService (a fake in unit tests). */
export type DeliveryCalls = Pick<CoreClient["deliveries"], "claimDueDeliveries" | "recordAttempts" | "releaseDeliveries">;

export type SendPolicy = Pick<
  DispatcherConfig,
  "concurrency" | "timeoutMs" | "leaseMs" | "pollIntervalMs" | "coreRetryMinMs" | "coreRetryMaxMs" | "recordTries" | "allowLoopback"
>;

/**
 * RecordAttempts calls in flight at once: an endpoint's slots free only when its attempts are
 * recorded, so one call at a time would make every attempt wait for the batch ahead of it.
 */
const RECORDERS = 4;
/** Outcomes per RecordAttempts call. */
const BATCH = 500;
/**
 * Group commit: while a record call is in flight, outcomes wait for it (it takes all that gathered
 * when it is back) and another call starts only once this many wait. Each call costs the core two
 * transactions whatever it carries, so under load calls grow instead of multiplying; a lone
 * outcome on an idle loop is still recorded at once.
 */
const RECORD_GROUP = 32;

/** An attempt's outcome waiting to be recorded. */
interface Pending {
  result: AttemptResult;
  /** Failures to record it that counted (see #failed). */
  tries: number;
  /** #answered when it was queued or last failed. */
  mark: number;
  /** It is the failed attempt standing in for an outcome the core would not take. */
  standIn: boolean;
}

/** A claim under way (ClaimDueDeliveries, or RecordAttempts with claim_limit) and the slots kept for it. */
interface Claim {
  /** Settles (never rejects) when the call has. */
  done: Promise<void>;
  limit: number;
  since: number;
  /** Its slots are still counted in #reserved. */
  reserved: boolean;
}

interface Waiter {
  wake: () => void;
  /** A poke ends this wait (the poll); a backoff ends only by its timer or by stop. */
  pokeable: boolean;
}

export class SendLoop {
  readonly #core: DeliveryCalls;
  readonly #log: Logger;
  readonly #policy: SendPolicy;
  readonly #backoff: Backoff;
  readonly #inFlight = new Map<string, AbortController>();
  /** Outcomes to record, in batches. */
  #results: Pending[] = [];
  /** Outcomes a call failed to record: each is sent alone from then on, so none holds back another. */
  #alone: Pending[] = [];
  #aloneTurn = false;
  readonly #recording = new Set<Promise<void>>();
  /** A recorder starts on the next turn of the event loop, so the outcomes of one I/O pass go in one call. */
  #recordSoon = false;
  /** Slots promised to claims under way (a record call claims too), so claims running at once never overfill. */
  #reserved = 0;
  /** The claim the loop waits for instead of claiming itself, if any. */
  #claiming: Claim | undefined;
  #woken = false;
  readonly #waiters = new Set<Waiter>();
  #stopped = false;
  /** Once stopping: nothing is tried after this time. */
  #giveUpAt = Infinity;
  #running: Promise<void> | undefined;
  /** Core calls answered without error. A failure counts against an outcome only if this moved since its last one. */
  #answered = 0;
  /** Attempts sent by this process (for the log and the health answer). */
  sent = 0;

  constructor(core: DeliveryCalls, log: Logger, policy: SendPolicy) {
    this.#core = core;
    this.#log = log;
    this.#policy = policy;
    this.#backoff = new Backoff(policy.coreRetryMinMs, policy.coreRetryMaxMs);
  }

  start(): void {
    this.#running = this.#run();
  }

  /** Something may have become due (new deliveries recorded, a slot freed): claim without waiting for the poll. */
  poke(): void {
    this.#woken = true;
    for (const waiter of this.#waiters) if (waiter.pokeable) waiter.wake();
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      // Cleared on every pass: a poke asks for one more pass, never for a loop without a wait.
      this.#woken = false;
      const backoff = this.#backoff.remainingMs();
      if (backoff > 0) {
        // The core is failing: pokes do not shorten this wait.
        await this.#wait(backoff, false);
        continue;
      }
      // One claim at a time (claims cost the core more than records): a record call may be claiming.
      this.#dropStaleClaim();
      if (this.#claiming) await within(this.#claiming.done, this.#claiming.since + this.#policy.pollIntervalMs);
      else if (this.#free() > 0) await this.#claim();
      if (this.#stopped) break;
      if (this.#woken) {
        // Woken meanwhile (new deliveries, freed slots): claim again, after the event loop had a turn.
        await nextTurn();
        continue;
      }
      await this.#wait(this.#policy.pollIntervalMs, true);
    }
  }

  /** Resolves after `ms`, on stop, or (when `pokeable`) on a poke. */
  #wait(ms: number, pokeable: boolean): Promise<void> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        pokeable,
        wake: () => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, ms);
      this.#waiters.add(waiter);
    });
  }

  #free(): number {
    return Math.max(0, this.#policy.concurrency - this.#inFlight.size - this.#reserved);
  }

  /** Makes `call` the claim under way, with `limit` slots kept for what it brings. */
  #hold(call: Promise<unknown>, limit: number): Claim {
    const claim: Claim = {
      done: call.then(
        () => undefined,
        () => undefined,
      ),
      limit,
      since: Date.now(),
      reserved: true,
    };
    this.#reserved += limit;
    this.#claiming = claim;
    return claim;
  }

  #unhold(claim: Claim): void {
    if (claim.reserved) this.#reserved -= claim.limit;
    claim.reserved = false;
    if (this.#claiming === claim) this.#claiming = undefined;
  }

  /**
   * A claim under way for longer than a poll interval (a slow or stuck core call) stops holding up
   * claims and stops keeping its slots; whatever it brings later is sent as far as slots are free
   * then, and the rest handed back (#take), so DISPATCHER_CONCURRENCY still holds.
   */
  #dropStaleClaim(): void {
    const claim = this.#claiming;
    if (claim && Date.now() - claim.since >= this.#policy.pollIntervalMs) this.#unhold(claim);
  }

  /** Sends what a claim brought, as far as slots are free; the rest goes back to the core. */
  async #take(deliveries: DueDelivery[]): Promise<void> {
    const room = this.#stopped ? 0 : this.#free();
    for (const delivery of deliveries.slice(0, room)) this.#send(delivery);
    await this.#release(deliveries.slice(room).map((d) => d.delivery_id));
  }

  async #claim(): Promise<void> {
    const limit = this.#free();
    const call = untraced(() => this.#core.claimDueDeliveries({ limit, lease_ms: this.#policy.leaseMs }, this.#meta()));
    const claim = this.#hold(call, limit);
    let claimed: DueDelivery[];
    try {
      ({ deliveries: claimed } = await call);
      this.#coreAnswered();
    } catch (err) {
      this.#coreFailed(err, "could not claim due deliveries");
      return;
    } finally {
      this.#unhold(claim);
    }
    await this.#take(claimed);
  }

  #send(delivery: DueDelivery): void {
    const abort = new AbortController();
    this.#inFlight.set(delivery.delivery_id, abort);
    // Tracing on: the attempt continues the trace of the request that raised the event.
    const span = tracingOn()
      ? startSpan("webhook attempt", {
          kind: SpanKind.CLIENT,
          parent: contextOf(delivery.traceparent),
          attributes: { "paytami.delivery_id": delivery.delivery_id, "paytami.event_id": delivery.event_id, "paytami.attempt": delivery.attempt },
        })
      : undefined;
    void withSpan(span, () =>
      sendWebhook({
        url: delivery.url,
        eventId: delivery.event_id,
        body: delivery.body,
        secrets: delivery.secrets,
        destinations: webhookDestinations(modeCodec.toWire(delivery.mode), this.#policy.allowLoopback),
        timeoutMs: this.#policy.timeoutMs,
        signal: abort.signal,
      }),
    ).then((outcome) => {
      if (span) {
        if (outcome.httpStatus !== undefined) span.setAttribute("http.response.status_code", outcome.httpStatus);
        if (outcome.error !== undefined || outcome.httpStatus === undefined || outcome.httpStatus >= 300) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
      this.#inFlight.delete(delivery.delivery_id);
      // An attempt cut short by a stopping dispatcher is handed back, not recorded.
      if (abort.signal.aborted) return;
      this.sent++;
      this.#results.push({ result: toResult(delivery.delivery_id, outcome), tries: 0, mark: this.#answered, standIn: false });
      if (this.#recordSoon) return;
      this.#recordSoon = true;
      setImmediate(() => {
        this.#recordSoon = false;
        this.#startRecorder();
      });
    });
  }

  #startRecorder(): void {
    const running = this.#recording.size;
    if (running >= RECORDERS) return;
    // A call in flight takes what gathers meanwhile when it is back (#record loops), unless a group is ready.
    if (running > 0 && this.#results.length < RECORD_GROUP) return;
    const recording = this.#record().finally(() => this.#recording.delete(recording));
    this.#recording.add(recording);
  }

  /** The next call's outcomes: a batch, or one that failed before; they take turns so neither waits on the other. */
  #nextBatch(): { batch: Pending[]; alone: boolean } {
    this.#aloneTurn = !this.#aloneTurn;
    if (this.#alone.length > 0 && (this.#aloneTurn || this.#results.length === 0)) return { batch: this.#alone.splice(0, 1), alone: true };
    return { batch: this.#results.splice(0, BATCH), alone: false };
  }

  async #record(): Promise<void> {
    for (;;) {
      const now = Date.now();
      if (now >= this.#giveUpAt) return;
      const backoff = this.#backoff.remainingMs();
      if (backoff > 0) {
        await this.#wait(Math.min(backoff, this.#giveUpAt - now), false);
        continue;
      }
      const { batch, alone } = this.#nextBatch();
      if (batch.length === 0) return;
      // The same call claims what is due next (the recorded deliveries' slots are free again),
      // unless a claim is under way, or the call carries an outcome that failed before (it may well
      // fail or stall again, and would hold the claim meanwhile).
      const limit = this.#stopped || this.#claiming || alone ? 0 : this.#free();
      const call = untraced(() =>
        this.#core.recordAttempts({ results: batch.map((p) => p.result), claim_limit: limit, lease_ms: this.#policy.leaseMs }, this.#meta()),
      );
      const claim = limit > 0 ? this.#hold(call, limit) : undefined;
      let answer: RecordAttemptsResponse;
      try {
        answer = await call;
        this.#coreAnswered();
      } catch (err) {
        // No waiting here: the claim is released first (finally), the backoff is waited above.
        this.#coreFailed(err, `could not record ${batch.length} attempt(s)`);
        this.#failed(batch, reasonOf(err));
        continue;
      } finally {
        if (claim) this.#unhold(claim);
      }
      for (const rejected of answer.rejected) {
        const pending = batch[rejected.index];
        if (pending?.result.delivery_id === rejected.delivery_id) this.#failed([pending], rejected.reason);
      }
      await this.#take(answer.deliveries);
      // A full claim may have left more due; without a claim the loop claims for the freed slots.
      if (limit === 0 || answer.deliveries.length === limit) this.poke();
    }
  }

  /**
   * Outcomes a call did not record: each is tried again alone. A failure counts against an outcome
   * only if the core answered some call since its previous one, so while the core or its database
   * is away outcomes wait and none is lost. One that keeps failing while the core answers others is,
   * after `recordTries`, replaced by a failed attempt saying why (no status, no excerpt); if the
   * core will not take that either, it is given up and the delivery goes out again when its lease
   * runs out.
   */
  #failed(batch: Pending[], reason: string): void {
    for (const pending of batch) {
      if (this.#answered > pending.mark) pending.tries++;
      pending.mark = this.#answered;
      const deliveryId = pending.result.delivery_id;
      if (pending.tries < this.#policy.recordTries) {
        this.#alone.push(pending);
      } else if (!pending.standIn) {
        this.#log.warn({ delivery_id: deliveryId, reason }, "the core does not take this attempt's outcome; recording it as a failed attempt");
        this.#alone.push({ result: standIn(pending.result, reason), tries: 0, mark: this.#answered, standIn: true });
      } else {
        this.#log.error({ delivery_id: deliveryId, reason }, "could not record an attempt at all; its delivery is sent again when its lease runs out");
      }
    }
  }

  #coreAnswered(): void {
    this.#answered++;
    this.#backoff.succeeded();
  }

  #coreFailed(err: unknown, what: string): void {
    this.#backoff.failed();
    this.#log.warn({ err, retry_in_ms: this.#backoff.remainingMs() }, `${what}; trying again`);
  }

  /** Once stopping, no call may outlive the time left. */
  #meta(): CallMeta | undefined {
    return this.#giveUpAt === Infinity ? undefined : { timeoutMs: Math.max(1, this.#giveUpAt - Date.now()) };
  }

  async #release(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await untraced(() => this.#core.releaseDeliveries({ delivery_ids: ids }, this.#meta())).catch((err: unknown) =>
      this.#log.warn({ err, deliveries: ids.length }, "could not hand deliveries back; their leases run out instead"),
    );
  }

  /**
   * Stops claiming; attempts in flight get `graceMs` to finish, the rest are aborted and handed back
   * to the core (due again at once, for any dispatcher); outcomes are recorded until `deadline` (a
   * time), and whatever the core does, this returns by then.
   */
  async stop(graceMs: number, deadline: number): Promise<void> {
    const graceEnds = Date.now() + graceMs;
    this.#stopped = true;
    this.#giveUpAt = Math.max(deadline, graceEnds);
    for (const waiter of this.#waiters) waiter.wake();
    // A claim under way that the core does not answer is not waited for beyond the grace.
    await within(this.#running, graceEnds);
    while (this.#inFlight.size > 0 && Date.now() < graceEnds) await sleep(20);
    const abandoned = [...this.#inFlight.keys()];
    for (const abort of this.#inFlight.values()) abort.abort();
    await this.#release(abandoned);
    if (this.#results.length + this.#alone.length > 0) this.#startRecorder();
    while (this.#recording.size > 0 && Date.now() < this.#giveUpAt) await within(Promise.race(this.#recording), this.#giveUpAt);
    const left = this.#results.length + this.#alone.length;
    if (left > 0) this.#log.warn({ attempts: left }, "stopped with attempt outcomes not recorded; their deliveries are sent again when their leases run out");
  }
}

/** Resolves when `promise` settles or at `deadline`, whichever comes first. */
function within(promise: Promise<unknown> | undefined, deadline: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    void promise?.then(done, done);
    if (!promise) done();
  });
}

/** Why a call failed, in words fit for an attempt's error (no addresses). */
function reasonOf(err: unknown): string {
  if (err instanceof CoreError) return err.fromCore ? `the core answered ${err.code}` : "the core did not answer";
  return "the call failed";
}

/** The failed attempt recorded in place of an outcome the core would not take: what happened, and why it is not all there. */
function standIn(result: AttemptResult, reason: string): AttemptResult {
  const got = result.http_status !== undefined ? `HTTP ${result.http_status}` : (result.error ?? "no response");
  return {
    delivery_id: result.delivery_id,
    attempted_at: Number.isNaN(Date.parse(result.attempted_at)) ? new Date().toISOString() : result.attempted_at,
    error: `${got.slice(0, 200)}; this outcome could not be recorded as it was: ${reason.slice(0, 300)}`,
    latency_ms: result.latency_ms,
    response_excerpt: "",
  };
}

function toResult(deliveryId: string, outcome: WebhookOutcome): AttemptResult {
  return {
    delivery_id: deliveryId,
    attempted_at: outcome.attemptedAt.toISOString(),
    http_status: outcome.httpStatus,
    error: outcome.error,
    latency_ms: outcome.latencyMs,
    response_excerpt: outcome.responseExcerpt,
    retry_after_ms: outcome.retryAfterMs,
  };
}
