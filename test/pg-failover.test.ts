// DESIGN §7 / issue 19: the core on a PostgreSQL primary with a synchronous streaming standby, named
// together in a multi-host DATABASE_URL (target_session_attrs=read-write). 32 clients create
// payments, each key sent until it is answered 201 and then replayed, while the primary is killed -9
// and the standby promoted. Every key ends with exactly one payment, its replays are byte-identical,
// nothing answers 500 (503 processor_unavailable while there is no primary), /healthz says 503 then,
// the API answers 201 again within 10 s of the promotion, and the ledger verifies clean afterwards.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useStack, verifyStackLedger } from "./support/expect.ts";
import { createPaymentsThroughFailover, expectFailoverPromisesKept } from "./support/failover-load.ts";
import { startReplicatedPostgres, type ReplicatedPostgres } from "../core/src/devstack/pg-replicated.ts";
import type { Merchant, StackOptions } from "./support/stack.ts";

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

describe("PostgreSQL failover under load", () => {
  let merchant: Merchant;

  test("32 clients with same-key retries ride out kill -9 of the primary and the standby's promotion", { timeout: 90_000 }, async () => {
    const s = stack();
    merchant = await s.admin.createMerchant({ name: "Failover Shop" });
    const health = async () => (await fetch(`${s.coreHttpUrl}/healthz`)).status;
    expect(await health()).toBe(200);

    const load = await createPaymentsThroughFailover(s.http, merchant.testApiKey, async () => {
      cluster!.killPrimary();
      // No primary: the core says so to its load balancer.
      const deadline = Date.now() + 10_000;
      while ((await health()) !== 503) {
        expect(Date.now()).toBeLessThan(deadline);
        await sleep(100);
      }
      await sleep(500);
      await cluster!.promoteStandby();
      return Date.now();
    });
    expect(await health()).toBe(200);
    const rows = await s.sql<{ id: string }>("SELECT id FROM payments WHERE merchant_id = $1", [merchant.merchantId]);
    expectFailoverPromisesKept(
      load,
      rows.map((r) => r.id),
    );

    const ledger = await verifyStackLedger(s);
    expect(ledger.ok ? [] : ledger.violations).toEqual([]);
  });
});
