// The EVENT_RETENTION purge against a real PostgreSQL: only published events older than the
// retention go, in claimed batches.
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { purgeExpiredEvents } from "./purge-events.ts";

const DAY = 86_400_000;
let database: MigratedDatabase | undefined;
let orm: MikroORM;
const clock = new Date("2026-11-21T12:00:00.000Z");
let deps: CoreDeps;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 4, now: () => clock });
  ({ orm, deps } = database);
});

afterAll(() => database?.close());

it("purges published events older than EVENT_RETENTION, batch by batch, and keeps unpublished and younger ones", async () => {
  const row = (id: string, ageMs: number, published: boolean) => {
    const at = new Date(clock.getTime() - ageMs);
    return {
      id,
      merchant_id: "m",
      mode: "test",
      type: "payment.succeeded",
      envelope: { id },
      created_at: at,
      published,
    };
  };
  const rows = [
    row("old1", 31 * DAY, true),
    row("old2", 30 * DAY, true),
    row("old3", 40 * DAY, true),
    row("old-unpublished", 40 * DAY, false),
    row("young", 29 * DAY, true),
  ];
  const written = await db(orm.em.fork())
    .insertInto("outbox_events")
    .values(rows.map(({ published: _, ...event }) => event))
    .returning(["id", "seq"])
    .execute();
  // Not yet published: still in the relay's queue.
  const unpublished = written.filter((w) => !rows.find((r) => r.id === w.id)!.published).map((w) => ({ seq: w.seq }));
  await db(orm.em.fork()).insertInto("outbox_pending").values(unpublished).execute();
  const config = { ...deps.config, eventRetentionMs: 30 * DAY };
  expect(await purgeExpiredEvents({ ...deps, config }, { batch: 2 })).toEqual({ purged: 2 });
  expect(await purgeExpiredEvents({ ...deps, config }, { batch: 2 })).toEqual({ purged: 1 });
  expect(await purgeExpiredEvents({ ...deps, config }, { batch: 2 })).toEqual({});
  const left = await db(orm.em.fork()).selectFrom("outbox_events").select("id").orderBy("id").execute();
  expect(left.map((r) => r.id)).toEqual(["old-unpublished", "young"]);
});
