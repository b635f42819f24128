// The PostgreSQL failover scenario both the single stack (test/pg-failover.test.ts) and `npm run
// cluster` (test/cluster.test.ts) run: 32 clients create payments, each key sent until it is
// answered 201 and then replayed, while `failover` kills the primary and promotes the standby; and
// the promises checked afterwards (issue 19): every key exactly one payment, byte-identical
// replays, no 500 (503 processor_unavailable means "try again"), 201 again within 10 s of the promotion.
import { expect } from "vitest";
import { validBody } from "./expect.ts";
import { newIdemKey, type HttpClient, type Res } from "./http.ts";

export const FAILOVER_CLIENTS = 32;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface KeyOutcome {
  key: string;
  answers: Res[];
}

export interface FailoverLoad {
  outcomes: KeyOutcome[];
  unexpected: string[];
  promotedAt: number;
  firstCreatedAfterPromotion: number | undefined;
}

/**
 * Runs the clients for `warmupMs`, then `failover()` (which resolves with the promotion's time), then
 * until the first 201 after the promotion (at most 15 s) and `afterMs` more.
 */
export async function createPaymentsThroughFailover(
  http: HttpClient,
  apiKey: string,
  failover: () => Promise<number>,
  options: { clients?: number; warmupMs?: number; afterMs?: number } = {},
): Promise<FailoverLoad> {
  const unexpected: string[] = [];
  const outcomes: KeyOutcome[] = [];
  let stopping = false;
  let promotedAt = Number.POSITIVE_INFINITY;
  let firstCreatedAfterPromotion: number | undefined;

  const until201 = async (key: string, body: Record<string, unknown>, outcome: KeyOutcome): Promise<Res> => {
    for (;;) {
      const sentAt = Date.now();
      const res = await http.createPayment(apiKey, body, { idem: key, timeoutMs: 20_000 });
      if (res.status === 201) {
        if (sentAt >= promotedAt) firstCreatedAfterPromotion ??= Date.now();
        outcome.answers.push(res);
        return res;
      }
      if (res.status !== 503 || res.json?.error?.code !== "processor_unavailable") {
        unexpected.push(`${res.status} ${res.text}`);
        throw new Error(`unexpected answer ${res.status}: ${res.text}`);
      }
      await sleep(50);
    }
  };
  const client = async (n: number) => {
    for (let i = 0; !stopping; i++) {
      const outcome: KeyOutcome = { key: newIdemKey(), answers: [] };
      outcomes.push(outcome);
      const body = validBody({ amount: String(10_000 + n * 1000 + (i % 1000)), description: `failover ${n}/${i}` });
      await until201(outcome.key, body, outcome);
      await until201(outcome.key, body, outcome);
    }
  };
  const clients = Array.from({ length: options.clients ?? FAILOVER_CLIENTS }, (_, n) => client(n));
  // A client that failed leaves the others running until the end: their outcomes are still checked.
  const settled = Promise.allSettled(clients);

  try {
    await sleep(options.warmupMs ?? 2_000);
    promotedAt = await failover();
    while (firstCreatedAfterPromotion === undefined && Date.now() - promotedAt < 15_000) await sleep(50);
    await sleep(options.afterMs ?? 2_000);
  } finally {
    stopping = true;
    await settled;
  }
  return { outcomes, unexpected, promotedAt, firstCreatedAfterPromotion };
}

/** The promises, given the merchant's payment ids as the database has them. */
export function expectFailoverPromisesKept(load: FailoverLoad, paymentIdsInDatabase: string[], clients = FAILOVER_CLIENTS): void {
  expect(load.unexpected).toEqual([]);
  expect(load.firstCreatedAfterPromotion, "no 201 after the promotion").toBeDefined();
  expect(load.firstCreatedAfterPromotion! - load.promotedAt).toBeLessThanOrEqual(10_000);
  // Every key: answered at least twice, always the same bytes, and one payment of its own.
  for (const { answers } of load.outcomes) {
    expect(answers.length).toBeGreaterThanOrEqual(2);
    for (const again of answers.slice(1)) expect(again.text).toBe(answers[0]!.text);
  }
  const ids = load.outcomes.map((o) => o.answers[0]!.json.id as string);
  expect(new Set(ids).size).toBe(load.outcomes.length);
  expect([...paymentIdsInDatabase].sort()).toEqual([...ids].sort());
  expect(load.outcomes.length).toBeGreaterThan(clients);
}
