// Sends due webhook attempts: claims them from the core with a lease (at most `concurrency` in
// flight here; the core bounds each endpoint over every dispatcher), POSTs each one independently,
// and records the outcomes in batches. No delivery waits for another: a hanging endpoint holds only
// the slots its own attempts occupy until their deadline.
import { setTimeout as sleep } from "node:timers/promises";
import type { CoreClient } from "../../proto/core-client.ts";
import { modeCodec } from "../../proto/enums.ts";
import type { AttemptResult, DueDelivery } from "../../proto/gen/paytami/v1/delivery.ts";
import type { Logger } from "../../proto/runtime/logger.ts";
import type { DispatcherConfig } from "./config.ts";
import { sendWebhook, type WebhookOutcome } from "../../proto/send-webhook.ts";
import { webhookDestinations } from "../../proto/public-address.ts";

type SendPolicy = Pick<DispatcherConfig, "concurrency" | "timeoutMs" | "leaseMs" | "pollIntervalMs" | "allowLoopback">;

/** A core call that failed is tried again after this long. */
const RETRY_MS = 500;
/**
 * RecordAttempts calls in flight at once: an endpoint's slots free only when its attempts are
 * recorded, so one call at a time would make every attempt wait for the batch ahead of it.
 */
const RECORDERS = 4;

export class SendLoop {
  readonly #core: CoreClient;
  readonly #log: Logger;
  readonly #policy: SendPolicy;
  readonly #inFlight = new Map<string, AbortController>();
  #results: AttemptResult[] = [];
  readonly #recording = new Set<Promise<void>>();
  /** Slots promised to claims under way (a record call claims too), so claims running at once never overfill. */
  #reserved = 0;
  /** The claim under way (ClaimDueDeliveries, or RecordAttempts with claim_limit), if any. */
  #claiming: Promise<unknown> | undefined;
  #woken = false;
  #wake: (() => void) | undefined;
  #stopped = false;
  #running: Promise<void> | undefined;
  /** Attempts sent by this process (for the log and the health answer). */
  sent = 0;

  constructor(core: CoreClient, log: Logger, policy: SendPolicy) {
    this.#core = core;
    this.#log = log;
    this.#policy = policy;
  }

  start(): void {
    this.#running = this.#run();
  }

  /** Something may have become due (new deliveries recorded, a slot freed): claim without waiting for the poll. */
  poke(): void {
    this.#woken = true;
    this.#wake?.();
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      if (this.#claiming) {
        // A record call is claiming (one claim at a time: claims cost the core more than records);
        // when it leaves more due or something else poked meanwhile, the loop claims after it.
        await this.#claiming.catch(() => undefined);
      } else {
        this.#woken = false;
        const free = this.#free();
        if (free > 0) {
          const call = this.#core.deliveries.claimDueDeliveries({ limit: free, lease_ms: this.#policy.leaseMs });
          this.#claiming = call;
          this.#reserved += free;
          let claimed: DueDelivery[];
          try {
            ({ deliveries: claimed } = await call);
          } catch (err) {
            this.#log.warn({ err }, "could not claim due deliveries");
            await sleep(RETRY_MS);
            continue;
          } finally {
            this.#reserved -= free;
            this.#claiming = undefined;
          }
          if (this.#stopped) {
            await this.#release(claimed.map((d) => d.delivery_id));
            break;
          }
          for (const delivery of claimed) this.#send(delivery);
        }
      }
      // Woken while claiming (new deliveries, freed slots): claim again at once.
      if (this.#woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#policy.pollIntervalMs);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
  }

  #free(): number {
    return Math.max(0, this.#policy.concurrency - this.#inFlight.size - this.#reserved);
  }

  #send(delivery: DueDelivery): void {
    const abort = new AbortController();
    this.#inFlight.set(delivery.delivery_id, abort);
    void sendWebhook({
      url: delivery.url,
      eventId: delivery.event_id,
      body: delivery.body,
      secrets: delivery.secrets,
      destinations: webhookDestinations(modeCodec.toWire(delivery.mode), this.#policy.allowLoopback),
      timeoutMs: this.#policy.timeoutMs,
      signal: abort.signal,
    }).then((outcome) => {
      this.#inFlight.delete(delivery.delivery_id);
      // An attempt cut short by a stopping dispatcher is handed back, not recorded.
      if (abort.signal.aborted) return;
      this.sent++;
      this.#results.push(toResult(delivery.delivery_id, outcome));
      if (this.#recording.size < RECORDERS) {
        const recording = this.#record().finally(() => this.#recording.delete(recording));
        this.#recording.add(recording);
      }
    });
  }

  async #record(): Promise<void> {
    while (this.#results.length > 0) {
      const batch = this.#results.splice(0, 500);
      // The same call claims what is due next (the recorded deliveries' slots are free again),
      // unless a claim is under way.
      const limit = this.#stopped || this.#claiming ? 0 : this.#free();
      const call = this.#core.deliveries.recordAttempts({ results: batch, claim_limit: limit, lease_ms: this.#policy.leaseMs });
      if (limit > 0) {
        this.#claiming = call;
        this.#reserved += limit;
      }
      try {
        const { deliveries } = await call;
        if (this.#stopped) await this.#release(deliveries.map((d) => d.delivery_id));
        else for (const delivery of deliveries) this.#send(delivery);
        // A full claim may have left more due; without a claim the loop claims for the freed slots.
        if (limit === 0 || deliveries.length === limit) this.poke();
      } catch (err) {
        this.#log.warn({ err, attempts: batch.length }, "could not record attempts; trying again");
        this.#results.unshift(...batch);
        await sleep(RETRY_MS);
      } finally {
        if (limit > 0) {
          this.#reserved -= limit;
          this.#claiming = undefined;
        }
      }
    }
  }

  async #release(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#core.deliveries.releaseDeliveries({ delivery_ids: ids }).catch((err: unknown) =>
      this.#log.warn({ err, deliveries: ids.length }, "could not hand deliveries back; their leases run out instead"));
  }

  /**
   * Stops claiming; attempts in flight get `graceMs` to finish and be recorded, the rest are
   * aborted and handed back to the core (due again at once, for any dispatcher).
   */
  async stop(graceMs: number): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#running;
    const deadline = Date.now() + graceMs;
    while (this.#inFlight.size > 0 && Date.now() < deadline) await sleep(20);
    const abandoned = [...this.#inFlight.keys()];
    for (const abort of this.#inFlight.values()) abort.abort();
    await this.#release(abandoned);
    while (this.#recording.size > 0 || this.#results.length > 0) {
      if (Date.now() > deadline + 5_000) break;
      await (this.#recording.size > 0 ? Promise.race(this.#recording) : this.#record());
    }
  }
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
