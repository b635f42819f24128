// DESIGN §7 / issue 19: the core on a PostgreSQL primary with a synchronous streaming standby, named
// together in a multi-host DATABASE_URL (target_session_attrs=read-write). 32 clients create
// payments, each key sent until it is answered 201 and then replayed, while the primary is killed -9
// and the standby promoted. Every key ends with exactly one payment, its replays are byte-identical,
// nothing answers 500 (503 processor_unavailable while there is no primary), /healthz says 503 then,
// the API answers 201 again within 10 s of the promotion, and the ledger verifies clean afterwards.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useStack, validBody, verifyStackLedger } from "./support/expect.ts";
import { newIdemKey, type Res } from "./support/http.ts";
import { startReplicatedPostgres, type ReplicatedPostgres } from "../core/src/devstack/pg-replicated.ts";
import type { Merchant, StackOptions } from "./support/stack.ts";

const CLIENTS = 32;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let cluster: ReplicatedPostgres | undefined;
// Filled in once the cluster is up (the stack starts in useStack's beforeAll, registered after this one).
const options: StackOptions & { allow503: boolean } = { allow503: true, env: { DB_CONNECT_TIMEOUT: "2s" } };
beforeAll(async () => {
  cluster = await startReplicatedPostgres();
  options.databaseUrl = cluster.url;
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});
const stack = useStack(options);

interface KeyOutcome {
  key: string;
  answers: Res[];
}

describe("PostgreSQL failover under load", () => {
  let merchant: Merchant;

  test("32 clients with same-key retries ride out kill -9 of the primary and the standby's promotion", { timeout: 90_000 }, async () => {
    const s = stack();
    merchant = await s.admin.createMerchant({ name: "Failover Shop" });
    const health = async () => (await fetch(`${s.coreHttpUrl}/healthz`)).status;
    expect(await health()).toBe(200);

    const unexpected: string[] = [];
    const outcomes: KeyOutcome[] = [];
    let stopping = false;
    let promotedAt = Number.POSITIVE_INFINITY;
    let firstCreatedAfterPromotion: number | undefined;

    // Sends `key` until it is answered 201; 503 processor_unavailable means "try again", anything else is a failure.
    const until201 = async (key: string, body: Record<string, unknown>, outcome: KeyOutcome): Promise<Res> => {
      for (;;) {
        const sentAt = Date.now();
        const res = await s.http.createPayment(merchant.testApiKey, body, { idem: key, timeoutMs: 20_000 });
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
    const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));

    await sleep(2_000);
    cluster!.killPrimary();
    // No primary: the core says so to its load balancer.
    const deadline = Date.now() + 10_000;
    while ((await health()) !== 503) {
      expect(Date.now()).toBeLessThan(deadline);
      await sleep(100);
    }
    await sleep(500);
    await cluster!.promoteStandby();
    promotedAt = Date.now();
    while (firstCreatedAfterPromotion === undefined && Date.now() - promotedAt < 15_000) await sleep(50);
    await sleep(2_000);
    stopping = true;
    await Promise.all(clients);

    expect(unexpected).toEqual([]);
    expect(firstCreatedAfterPromotion, "no 201 after the promotion").toBeDefined();
    expect(firstCreatedAfterPromotion! - promotedAt).toBeLessThanOrEqual(10_000);
    expect(await health()).toBe(200);

    // Every key: answered at least twice, always the same bytes, and one payment of its own.
    for (const { answers } of outcomes) {
      expect(answers.length).toBeGreaterThanOrEqual(2);
      for (const again of answers.slice(1)) expect(again.text).toBe(answers[0]!.text);
    }
    const ids = outcomes.map((o) => o.answers[0]!.json.id as string);
    expect(new Set(ids).size).toBe(outcomes.length);
    const rows = await s.sql<{ id: string }>("SELECT id FROM payments WHERE merchant_id = $1", [merchant.merchantId]);
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(outcomes.length).toBeGreaterThan(CLIENTS);

    const ledger = await verifyStackLedger(s);
    expect(ledger.ok ? [] : ledger.violations).toEqual([]);
  });
});
