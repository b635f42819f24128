// The AUDIT_RETENTION purge and the purge of ended dashboard sessions, against a real PostgreSQL.
import { afterAll, beforeAll, expect, it } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { purgeEndedSessions, purgeExpiredAuditEntries, purgeSpentUserTokens } from "./purge-audit-log.ts";

const DAY = 86_400_000;
let database: MigratedDatabase | undefined;
const clock = new Date("2026-11-25T12:00:00.000Z");
let deps: CoreDeps;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 4, now: () => clock });
  ({ deps } = database);
});

afterAll(() => database?.close());

it("purges audit rows older than AUDIT_RETENTION, batch by batch, and keeps younger ones", async () => {
  const row = (action: string, ageMs: number) => ({
    user_id: null,
    merchant_id: null,
    mode: null,
    action,
    object_id: null,
    client_ip: null,
    created_at: new Date(clock.getTime() - ageMs),
  });
  await db(deps.orm.em.fork())
    .insertInto("audit_log")
    .values([row("old1", 366 * DAY), row("old2", 400 * DAY), row("old3", 365 * DAY), row("young", 364 * DAY)])
    .execute();
  expect(await purgeExpiredAuditEntries(deps, { batch: 2 })).toEqual({ purged: 2 });
  expect(await purgeExpiredAuditEntries(deps, { batch: 2 })).toEqual({ purged: 1 });
  expect(await purgeExpiredAuditEntries(deps, { batch: 2 })).toEqual({});
  const left = await db(deps.orm.em.fork()).selectFrom("audit_log").select("action").execute();
  expect(left.map((r) => r.action)).toEqual(["young"]);
});

it("purges sessions past their absolute timeout only", async () => {
  const trx = db(deps.orm.em.fork());
  await trx
    .insertInto("merchants")
    .values({ id: "mer_0", name: "M", trade_name: "M", currencies: [], methods: [], created_at: clock, embed_origins: [], return_origins: [] })
    .execute();
  await trx
    .insertInto("dashboard_users")
    .values({
      id: "usr_0",
      email: "a@example.com",
      password_hash: null,
      totp_secret: null,
      totp_pending_secret: null,
      preferred_mode: "test",
      preferred_merchant_id: null,
      language: null,
      created_at: clock,
    })
    .execute();
  const session = (id: string, expiresInMs: number) => ({
    id,
    digest: id,
    user_id: "usr_0",
    merchant_id: "mer_0",
    mode: "test",
    created_at: clock,
    last_seen_at: clock,
    expires_at: new Date(clock.getTime() + expiresInMs),
    client_ip: null,
    user_agent: null,
  });
  await trx
    .insertInto("dashboard_sessions")
    .values([session("ended", -1), session("live", 60_000)])
    .execute();
  expect(await purgeEndedSessions(deps, { batch: 10 })).toEqual({ purged: 1 });
  expect((await trx.selectFrom("dashboard_sessions").select("id").execute()).map((r) => r.id)).toEqual(["live"]);
});

it("purges invite and reset tokens past their lifetime only", async () => {
  const trx = db(deps.orm.em.fork());
  const token = (digest: string, expiresInMs: number) => ({
    digest,
    purpose: "reset",
    user_id: "usr_0",
    merchant_id: null,
    created_at: clock,
    expires_at: new Date(clock.getTime() + expiresInMs),
    used_at: null,
  });
  await trx
    .insertInto("dashboard_user_tokens")
    .values([token("spent", 0), token("usable", 1_000)])
    .execute();
  expect(await purgeSpentUserTokens(deps, { batch: 10 })).toEqual({ purged: 1 });
  expect((await trx.selectFrom("dashboard_user_tokens").select("digest").execute()).map((r) => r.digest)).toEqual(["usable"]);
});
