// The send loop against a core this test plays, sending real POSTs to loopback receivers. The loop
// runs in a worker thread (test/support/send-loop-worker.ts) that posts a heartbeat every TICK_MS:
// a loop spinning on a settled promise starves only that thread, so this one sees the heartbeat
// stop (and the worker's event loop fully busy) instead of hanging with it.
import { setTimeout as sleep } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { modeCodec } from "../../proto/enums.ts";
import type { ErrorCode } from "../../proto/error-catalog.ts";
import type { AttemptResult, DueDelivery } from "../../proto/gen/paytami/v1/delivery.ts";
import { TICK_MS, type CallMethod, type FromWorker, type SendLoopWorkerData, type ToWorker } from "../../test/support/send-loop-worker.ts";
import { eventually } from "../../test/support/eventually.ts";
import { WebhookReceiver } from "../../test/support/webhook-receiver.ts";
import type { SendPolicy } from "./send-loop.ts";

const POLICY: SendPolicy = {
  concurrency: 8,
  timeoutMs: 2_000,
  leaseMs: 10_000,
  // Only pokes and backoffs move the loop in these tests.
  pollIntervalMs: 60_000,
  coreRetryMinMs: 50,
  coreRetryMaxMs: 400,
  recordTries: 3,
  // The receivers are on loopback.
  allowLoopback: true,
};

interface Call {
  method: CallMethod;
  request: any;
  at: number;
  timeoutMs: number | undefined;
}

/** What the fake core throws: a failed call as the core client reports it. */
class Failure extends Error {
  readonly code: ErrorCode;
  readonly fromCore: boolean;
  constructor(code: ErrorCode, message: string, fromCore: boolean) {
    super(message);
    this.code = code;
    this.fromCore = fromCore;
  }
}
const unreachable = () => new Failure("processor_unavailable", "core at 127.0.0.1:1 is unreachable", false);

type Handler = (method: CallMethod, request: any) => unknown;

/** A SendLoop in a worker thread; `handler` answers its core calls (a never-settling promise: no answer until the call's deadline). */
class RemoteLoop {
  readonly calls: Call[] = [];
  readonly logs: string[] = [];
  ticks = 0;
  readonly #worker: Worker;
  #onStopped: (() => void) | undefined;
  #firstTick: Promise<void>;

  constructor(policy: Partial<SendPolicy>, handler: Handler) {
    const workerData: SendLoopWorkerData = { sendLoopWorker: true, policy: { ...POLICY, ...policy } };
    this.#worker = new Worker(new URL("../../test/support/send-loop-worker.ts", import.meta.url), { workerData });
    let ticked: () => void;
    this.#firstTick = new Promise((resolve) => (ticked = resolve));
    this.#worker.on("message", (message: FromWorker) => {
      if (message.type === "tick") {
        this.ticks++;
        ticked();
      } else if (message.type === "log") this.logs.push(message.line);
      else if (message.type === "stopped") this.#onStopped?.();
      else this.#answer(message, handler);
    });
  }

  #answer(message: Extract<FromWorker, { type: "call" }>, handler: Handler): void {
    this.calls.push({ method: message.method, request: message.request, at: Date.now(), timeoutMs: message.timeoutMs });
    const reply = (answer: Omit<Extract<ToWorker, { type: "reply" }>, "type" | "id">) => this.#post({ type: "reply", id: message.id, ...answer });
    const answered = Promise.resolve().then(() => handler(message.method, message.request));
    const deadline = message.timeoutMs === undefined ? undefined : sleep(message.timeoutMs).then(() => Promise.reject(unreachable()));
    (deadline ? Promise.race([answered, deadline]) : answered).then(
      (value) => reply({ value }),
      (error: unknown) => {
        const failure = error instanceof Failure ? error : new Failure("internal_error", String(error), true);
        reply({ error: { code: failure.code, message: failure.message, fromCore: failure.fromCore } });
      },
    );
  }

  #post(message: ToWorker): void {
    this.#worker.postMessage(message);
  }

  ready(): Promise<void> {
    return this.#firstTick;
  }

  poke(): void {
    this.#post({ type: "poke" });
  }

  callsOf(method: CallMethod): Call[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** Heartbeats and the worker's event-loop utilization (0 idle … 1 never idle) over `ms`. */
  async watch(ms: number): Promise<{ ticks: number; busy: number }> {
    const ticks = this.ticks;
    const before = this.#worker.performance.eventLoopUtilization();
    await sleep(ms);
    return { ticks: this.ticks - ticks, busy: this.#worker.performance.eventLoopUtilization(before).utilization };
  }

  /** How long stop(graceMs, now + deadlineInMs) took, or Infinity if it did not end within 5 s more. */
  async stop(graceMs: number, deadlineInMs: number): Promise<number> {
    const started = Date.now();
    const stopped = new Promise<void>((resolve) => (this.#onStopped = resolve));
    this.#post({ type: "stop", graceMs, deadline: started + deadlineInMs });
    return Promise.race([stopped.then(() => Date.now() - started), sleep(deadlineInMs + 5_000).then(() => Infinity)]);
  }

  terminate(): Promise<number> {
    return this.#worker.terminate();
  }
}

let receiver: WebhookReceiver;
const loops: RemoteLoop[] = [];
beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});
afterEach(async () => {
  for (const loop of loops.splice(0)) await loop.terminate();
});
afterAll(() => receiver.stop());

function remote(policy: Partial<SendPolicy>, handler: Handler): RemoteLoop {
  const loop = new RemoteLoop(policy, handler);
  loops.push(loop);
  return loop;
}

function due(id: string, url = receiver.url): DueDelivery {
  return {
    delivery_id: id,
    event_id: `evt_${id}`,
    endpoint_id: "we_0123456789abcdef01234567",
    mode: modeCodec.fromWire("test"),
    url,
    body: Buffer.from(JSON.stringify({ id: `evt_${id}` })),
    secrets: ["whsec_test"],
    attempt: 1,
  };
}

/** Waits until no call of `method` came for 400 ms; returns how many there were. */
async function quiet(loop: RemoteLoop, method: CallMethod): Promise<number> {
  let count = loop.callsOf(method).length;
  for (let i = 0; i < 20; i++) {
    await sleep(400);
    if (loop.callsOf(method).length === count) return count;
    count = loop.callsOf(method).length;
  }
  throw new Error(`${method} kept being called`);
}

describe("send loop", () => {
  test("a poke while a failing record call holds the claim: the loop backs off instead of spinning, then records", async () => {
    let down = true;
    let claims = 0;
    const recorded: AttemptResult[] = [];
    const loop = remote({}, async (method, request) => {
      if (method === "claimDueDeliveries") {
        if (claims++ === 0) return { deliveries: [due("dlv_1")] };
        if (down) throw unreachable();
        return { deliveries: [] };
      }
      if (method === "recordAttempts") {
        if (down) {
          // Woken while this call (which also claims) is under way, then the call fails.
          loop.poke();
          await sleep(20);
          throw unreachable();
        }
        recorded.push(...(request.results as AttemptResult[]));
        return { deliveries: [], rejected: [] };
      }
      return {};
    });
    await loop.ready();
    await eventually(async () => (loop.callsOf("recordAttempts").length > 0 ? true : undefined), 10_000, "the first record call");
    expect(loop.callsOf("recordAttempts")[0]!.request.claim_limit).toBeGreaterThan(0);
    const poker = setInterval(() => loop.poke(), 25);
    const before = loop.calls.length;
    let watched: { ticks: number; busy: number };
    try {
      watched = await loop.watch(1_500);
    } finally {
      clearInterval(poker);
    }
    // A spinning loop never lets its timers fire: no heartbeat, the event loop busy all the time.
    expect(watched.ticks).toBeGreaterThan(1_500 / TICK_MS / 4);
    expect(watched.busy).toBeLessThan(0.5);
    // Backoff from 50 ms doubling to 400 ms: a handful of calls in 1.5 s, whatever the pokes.
    expect(loop.calls.length - before).toBeLessThan(40);
    down = false;
    await eventually(async () => (recorded.length > 0 ? true : undefined), 10_000, "the outcome to be recorded");
    expect(recorded).toEqual([expect.objectContaining({ delivery_id: "dlv_1", http_status: 200, response_excerpt: "ok" })]);
    expect(await loop.stop(100, 1_000)).toBeLessThan(2_000);
  });

  test("the wake flag is cleared on every path: each poke costs at most one more claim, never a loop", async () => {
    let delayMs = 0;
    let failNext = false;
    const loop = remote({}, async (method) => {
      if (method === "claimDueDeliveries") {
        await sleep(delayMs);
        if (failNext) {
          failNext = false;
          throw unreachable();
        }
        return { deliveries: [] };
      }
      return {};
    });
    await loop.ready();
    let claims = await quiet(loop, "claimDueDeliveries");
    expect(claims).toBe(1);
    // Poked while waiting for the poll: one claim.
    loop.poke();
    expect(await quiet(loop, "claimDueDeliveries")).toBe(claims + 1);
    claims++;
    // Poked during a claim: one more claim after it.
    delayMs = 150;
    loop.poke();
    await sleep(50);
    loop.poke();
    expect(await quiet(loop, "claimDueDeliveries")).toBe(claims + 2);
    claims += 2;
    // Poked during a claim that fails: one claim after the backoff, pokes or not.
    failNext = true;
    loop.poke();
    await sleep(50);
    loop.poke();
    const after = await quiet(loop, "claimDueDeliveries");
    expect(after).toBeGreaterThanOrEqual(claims + 2);
    expect(after).toBeLessThanOrEqual(claims + 3);
    expect((await loop.watch(300)).ticks).toBeGreaterThan(300 / TICK_MS / 4);
  });

  test("a record call that does not answer stops holding up claims after a poll interval; what it brings late beyond free slots is handed back", async () => {
    const hanging = await new WebhookReceiver(() => "hang").start();
    try {
      let answerStuck: ((value: unknown) => void) | undefined;
      let claims = 0;
      const loop = remote({ concurrency: 2, pollIntervalMs: 200, timeoutMs: 5_000 }, (method, request) => {
        if (method === "claimDueDeliveries") {
          claims++;
          if (claims === 1) return { deliveries: [due("dlv_1")] };
          if (claims === 2) return { deliveries: [due("dlv_2", hanging.url), due("dlv_3", hanging.url)] };
          return { deliveries: [] };
        }
        if (method === "recordAttempts" && request.claim_limit > 0 && !answerStuck) {
          // This call (which claims too) gets no answer until the test gives one.
          return new Promise((resolve) => (answerStuck = resolve));
        }
        return { deliveries: [], rejected: [] };
      });
      await loop.ready();
      await eventually(async () => (answerStuck ? true : undefined), 10_000, "the record call that hangs");
      // The loop claims beside it, for every slot: the hanging call no longer keeps them.
      await hanging.waitFor((requests) => requests.length === 2, 10_000, "both slots used by the loop's own claim");
      expect(loop.callsOf("claimDueDeliveries").map((c) => c.request.limit)).toEqual([2, 2]);
      // Its late answer finds no free slot: what it claimed goes back to the core at once.
      answerStuck!({ deliveries: [due("dlv_4"), due("dlv_5")], rejected: [] });
      await eventually(async () => (loop.callsOf("releaseDeliveries").length > 0 ? true : undefined), 5_000, "the hand-back");
      expect(loop.callsOf("releaseDeliveries").map((c) => c.request)).toEqual([{ delivery_ids: ["dlv_4", "dlv_5"] }]);
      expect(receiver.requests.filter((r) => r.eventId === "evt_dlv_4" || r.eventId === "evt_dlv_5")).toEqual([]);
    } finally {
      await hanging.stop();
    }
  });

  test("group commit: outcomes that come while a record call is in flight wait for it and go together in the next call", async () => {
    // dlv_1 is answered at once, the others 200, 300 and 400 ms later: all while the first record call (600 ms) is in flight.
    const staggered = await new WebhookReceiver((r) => ({ status: 200, delayMs: r.eventId === "evt_dlv_1" ? 0 : 100 * Number(r.eventId?.slice(-1)) })).start();
    try {
      let claims = 0;
      const offered: string[][] = [];
      const loop = remote({}, async (method, request) => {
        if (method === "claimDueDeliveries")
          return { deliveries: claims++ === 0 ? ["dlv_1", "dlv_2", "dlv_3", "dlv_4"].map((id) => due(id, staggered.url)) : [] };
        if (method === "recordAttempts") {
          offered.push((request.results as AttemptResult[]).map((r) => r.delivery_id));
          if (offered.length === 1) await sleep(600);
          return { deliveries: [], rejected: [] };
        }
        return {};
      });
      await loop.ready();
      await eventually(async () => (offered.flat().length === 4 ? true : undefined), 10_000, "every outcome recorded");
      expect(offered).toEqual([["dlv_1"], ["dlv_2", "dlv_3", "dlv_4"]]);
    } finally {
      await staggered.stop();
    }
  });

  test("an outcome the core rejects is retried alone, then recorded as a failed attempt; the rest of its batch is not held back", async () => {
    const offered: AttemptResult[][] = [];
    let claims = 0;
    const loop = remote({}, (method, request) => {
      if (method === "claimDueDeliveries") return { deliveries: claims++ === 0 ? [due("dlv_bad"), due("dlv_good")] : [] };
      if (method === "recordAttempts") {
        const results = request.results as AttemptResult[];
        offered.push(results);
        // The core refuses the outcome as sent (as one that could not be stored), and takes the stand-in.
        const rejected = results.flatMap((r, index) =>
          r.delivery_id === "dlv_bad" && r.http_status !== undefined ? [{ index, delivery_id: r.delivery_id, reason: "bad row" }] : [],
        );
        return { deliveries: [], rejected };
      }
      return {};
    });
    await loop.ready();
    const standIn = await eventually(
      async () => offered.flat().find((r) => r.delivery_id === "dlv_bad" && r.http_status === undefined),
      10_000,
      "the stand-in",
    );
    expect(standIn).toEqual({
      delivery_id: "dlv_bad",
      attempted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      error: "HTTP 200; this outcome could not be recorded as it was: bad row",
      latency_ms: expect.any(Number),
      response_excerpt: "",
    });
    // Offered as sent DISPATCHER_RECORD_TRIES (3) times, alone after the first refusal.
    const originals = offered.filter((results) => results.some((r) => r.delivery_id === "dlv_bad" && r.http_status === 200));
    expect(originals).toHaveLength(3);
    expect(originals.slice(1).every((results) => results.length === 1)).toBe(true);
    // The other outcome was recorded the first time it was offered.
    expect(offered.flat().filter((r) => r.delivery_id === "dlv_good")).toEqual([expect.objectContaining({ http_status: 200, response_excerpt: "ok" })]);
    // Once the stand-in is taken, nothing more is sent about it.
    await sleep(300);
    expect(offered.flat().filter((r) => r.delivery_id === "dlv_bad")).toHaveLength(4);
  });

  test("while the core does not answer, outcomes wait (none becomes a failed attempt) and calls are spaced by the backoff", async () => {
    let down = true;
    let claims = 0;
    const recorded: AttemptResult[] = [];
    const loop = remote({}, (method, request) => {
      if (method === "claimDueDeliveries" && claims++ === 0) return { deliveries: [due("dlv_a"), due("dlv_b"), due("dlv_c")] };
      if (down) throw unreachable();
      if (method === "recordAttempts") recorded.push(...(request.results as AttemptResult[]));
      return { deliveries: [], rejected: [] };
    });
    await loop.ready();
    await eventually(async () => (loop.callsOf("recordAttempts").length > 0 ? true : undefined), 10_000, "the first record call");
    const before = loop.calls.length;
    const watched = await loop.watch(1_500);
    expect(watched.ticks).toBeGreaterThan(1_500 / TICK_MS / 4);
    // 50, 100, 200, 400, 400 … ms between rounds; a round is at most the recorders and a claim.
    expect(loop.calls.length - before).toBeLessThan(40);
    down = false;
    await eventually(async () => (recorded.length >= 3 ? true : undefined), 10_000, "every outcome to be recorded");
    expect(recorded.map((r) => [r.delivery_id, r.http_status, r.error]).sort()).toEqual([
      ["dlv_a", 200, undefined],
      ["dlv_b", 200, undefined],
      ["dlv_c", 200, undefined],
    ]);
  });

  test("stopping while the core does not answer ends by its deadline; the attempt in flight is aborted and handed back", async () => {
    const hanging = await new WebhookReceiver(() => "hang").start();
    try {
      let claims = 0;
      const loop = remote({}, (method) => {
        if (method === "claimDueDeliveries" && claims++ === 0) return { deliveries: [due("dlv_hang", hanging.url)] };
        // No answer: only the call's own deadline ends it.
        return new Promise(() => undefined);
      });
      await loop.ready();
      await hanging.waitFor((requests) => requests.length === 1, 10_000, "the attempt");
      // A claim the core never answers is under way when the stop comes.
      loop.poke();
      await eventually(async () => (loop.callsOf("claimDueDeliveries").length === 2 ? true : undefined), 5_000, "the second claim");
      const took = await loop.stop(200, 1_000);
      expect(took).toBeLessThan(1_500);
      const [release] = loop.callsOf("releaseDeliveries");
      expect(release?.request).toEqual({ delivery_ids: ["dlv_hang"] });
      expect(release?.timeoutMs).toBeLessThanOrEqual(1_000);
    } finally {
      await hanging.stop();
    }
  });
});
