// The relay's queue against a real PostgreSQL (publishing itself is tested across processes in
// test/outbox-relay.test.ts): what it does with a queue row whose event is no longer there.
import { afterAll, beforeAll, expect, it } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { jobRuns } from "../metrics.ts";
import { OutboxRelay } from "./outbox-relay.ts";

let database: MigratedDatabase | undefined;
let deps: CoreDeps;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => new Date() });
  ({ deps } = database);
});

afterAll(() => database?.close());

const goneCount = async () => (await jobRuns.get()).values.find((v) => v.labels.job_name === "outbox_relay" && v.labels.outcome === "gone")?.value ?? 0;

it("a queue row whose event is gone leaves the queue, counted, and nothing is published (NATS is not even asked)", async () => {
  await db(deps.orm.em.fork())
    .insertInto("outbox_pending")
    .values([{ seq: "9001" }, { seq: "9002" }])
    .execute();
  const before = await goneCount();
  // Nothing listens on this address: a publish would never be acknowledged, so the pass would not return.
  const relay = new OutboxRelay(deps, "nats://127.0.0.1:9");
  try {
    expect(await relay.relayOnce({ batch: 10, leaseMs: 30_000 })).toBe(0);
  } finally {
    await relay.close();
  }
  expect(await db(deps.orm.em.fork()).selectFrom("outbox_pending").selectAll().execute()).toEqual([]);
  expect(await goneCount()).toBe(before + 2);
});
