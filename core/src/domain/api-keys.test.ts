// API keys as the dashboard and the operator manage them, against a real database: the roll window,
// revocation, the list, and "last used" written at most once per key per interval (counted by a
// trigger on the table, not by timing).
import { sql } from "kysely";
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db, openOrm } from "../db/orm.ts";
import { admin } from "../operations/admin.ts";
import { payments } from "../operations/payments.ts";
import { keyUsesWritten } from "./api-key-use.ts";
import { presentApiKey } from "./api-keys.ts";
import { OPERATOR, type MerchantRole, type SessionCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { runOperation } from "./operation.ts";

let database: MigratedDatabase | undefined;
let deps: CoreDeps;
let clock = new Date("2026-11-25T12:00:00.000Z");
let mine: string;
let mineTestKey: string;
let theirs: string;
const DAY = 86_400;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 4, now: () => clock });
  ({ deps } = database);
  const created = await runOperation(deps, admin.createMerchant, OPERATOR, { name: "Llaves", currencies: [], methods: [] });
  mine = created.merchantId;
  mineTestKey = created.testApiKey;
  theirs = (await runOperation(deps, admin.createMerchant, OPERATOR, { name: "Ajena", currencies: [], methods: [] })).merchantId;
  // Every row version a write makes, counted per key: the test's measure of "at most one write".
  const trx = db(deps.orm.em.fork());
  await sql`create table key_writes (key_id text not null)`.execute(trx);
  await sql`create function count_key_write() returns trigger language plpgsql as $$ begin insert into key_writes values (new.id); return new; end $$`.execute(
    trx,
  );
  await sql`create trigger count_key_writes after update on api_keys for each row execute function count_key_write()`.execute(trx);
});

afterAll(() => database?.close());

const session = (role: MerchantRole, merchantId = mine): SessionCaller => ({
  kind: "merchant",
  merchantId,
  mode: "test",
  via: "session",
  role,
  session: { userId: "usr_000000000000000000000001", sessionId: "ses_000000000000000000000001", clientIp: "203.0.113.7" },
});

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof DomainError ? `${error.code}: ${error.message}` : error),
  );

/** Whether `secret` authenticates now (the runner resolves it as every merchant request does). */
const works = (secret: string, on: CoreDeps = deps) =>
  runOperation(on, payments.authenticate, presentApiKey(secret), undefined).then(
    () => true,
    (error: unknown) => {
      if (error instanceof DomainError && error.code === "unauthorized") return false;
      throw error;
    },
  );

const keyRow = (id: string) =>
  db(deps.orm.em.fork()).selectFrom("api_keys").select(["expires_at", "revoked_at", "last_used_at"]).where("id", "=", id).executeTakeFirstOrThrow();

const keyCount = async () =>
  Number(
    (
      await db(deps.orm.em.fork())
        .selectFrom("api_keys")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

const writesOf = async (id: string) =>
  Number((await sql<{ n: string }>`select count(*) as n from key_writes where key_id = ${id}`.execute(db(deps.orm.em.fork()))).rows[0]!.n);

const later = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};

describe("rolling a key", () => {
  test("the old key expires at the chosen time within 0 … 7 days; both keys work until then, then only the new one", async () => {
    const old = await runOperation(deps, admin.createApiKey, session("developer"), {});
    const rolled = await runOperation(deps, admin.rollApiKey, session("developer"), { id: old.id, expiresInSeconds: 3600 });
    expect(rolled.id).toBe(old.id);
    expect(rolled.expiresAt.toISOString()).toBe(new Date(clock.getTime() + 3_600_000).toISOString());
    expect(rolled.replacement).toMatchObject({ mode: "test", expiresAt: null });
    expect(rolled.replacement.apiKey).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect((await keyRow(old.id)).expires_at?.toISOString()).toBe(rolled.expiresAt.toISOString());
    expect([await works(old.apiKey), await works(rolled.replacement.apiKey)]).toEqual([true, true]);
    later(3599);
    expect([await works(old.apiKey), await works(rolled.replacement.apiKey)]).toEqual([true, true]);
    later(1);
    expect([await works(old.apiKey), await works(rolled.replacement.apiKey)]).toEqual([false, true]);
    // The longest roll the policy allows, and an immediate one.
    const week = await runOperation(deps, admin.rollApiKey, session("admin"), { id: rolled.replacement.id, expiresInSeconds: 7 * DAY });
    expect(week.expiresAt.getTime() - clock.getTime()).toBe(7 * DAY * 1000);
    const now = await runOperation(deps, admin.rollApiKey, OPERATOR, { id: week.replacement.id, expiresInSeconds: 0 });
    expect([await works(week.replacement.apiKey), await works(now.replacement.apiKey)]).toEqual([false, true]);
  });

  test("a time outside the window is refused naming the limit, and nothing changes", async () => {
    const key = await runOperation(deps, admin.createApiKey, session("developer"), {});
    const before = await keyCount();
    for (const seconds of [-1, 7 * DAY + 1, 1.5, Number.NaN]) {
      expect(await codeOf(runOperation(deps, admin.rollApiKey, session("developer"), { id: key.id, expiresInSeconds: seconds }))).toBe(
        `validation_error: expires_in_seconds must be a whole number of seconds from 0 (the old key stops now) to 604800 (7 days, API_KEY_ROLL_MAX), got ${String(seconds)}.`,
      );
    }
    expect(await keyCount()).toBe(before);
    expect(await keyRow(key.id)).toMatchObject({ expires_at: null, revoked_at: null });
    expect(await works(key.apiKey)).toBe(true);
  });

  test("an old key that already expires sooner keeps its expiry; a revoked, expired, foreign or other-mode key cannot be rolled", async () => {
    const soon = await runOperation(deps, admin.createApiKey, OPERATOR, {
      merchantId: mine,
      mode: "test",
      expiresAt: new Date(clock.getTime() + 60_000).toISOString(),
    });
    const rolled = await runOperation(deps, admin.rollApiKey, session("developer"), { id: soon.id, expiresInSeconds: DAY });
    expect(rolled.expiresAt.toISOString()).toBe(new Date(clock.getTime() + 60_000).toISOString());

    const revoked = await runOperation(deps, admin.createApiKey, session("developer"), {});
    await runOperation(deps, admin.revokeApiKey, session("developer"), revoked.id);
    const foreign = await runOperation(deps, admin.createApiKey, OPERATOR, { merchantId: theirs, mode: "test" });
    const live = await runOperation(deps, admin.createApiKey, OPERATOR, { merchantId: mine, mode: "live" });
    const before = await keyCount();
    expect(await codeOf(runOperation(deps, admin.rollApiKey, session("developer"), { id: revoked.id, expiresInSeconds: 0 }))).toBe(
      `validation_error: API key ${revoked.id} is revoked; create a new key instead of rolling it.`,
    );
    later(61);
    expect(await codeOf(runOperation(deps, admin.rollApiKey, session("developer"), { id: soon.id, expiresInSeconds: 0 }))).toBe(
      `validation_error: API key ${soon.id} has expired; create a new key instead of rolling it.`,
    );
    for (const id of [foreign.id, live.id, "key_nothing"]) {
      expect(await codeOf(runOperation(deps, admin.rollApiKey, session("owner"), { id, expiresInSeconds: 0 }))).toBe(
        `validation_error: Unknown API key ${id}.`,
      );
    }
    expect(await keyCount()).toBe(before);
    expect([await works(foreign.apiKey), await works(live.apiKey)]).toEqual([true, true]);
  });

  test("a viewer may not roll, revoke, create or list", async () => {
    const key = await runOperation(deps, admin.createApiKey, session("developer"), {});
    const before = await keyCount();
    expect(await codeOf(runOperation(deps, admin.rollApiKey, session("viewer"), { id: key.id, expiresInSeconds: 0 }))).toMatch(
      /^unauthorized: roll_api_key needs the developer role/,
    );
    expect(await codeOf(runOperation(deps, admin.revokeApiKey, session("viewer"), key.id))).toMatch(/^unauthorized/);
    expect(await codeOf(runOperation(deps, admin.createApiKey, session("viewer"), {}))).toMatch(/^unauthorized/);
    expect(await codeOf(runOperation(deps, admin.listApiKeys, session("viewer"), undefined))).toMatch(/^unauthorized/);
    expect(await keyCount()).toBe(before);
    expect(await keyRow(key.id)).toMatchObject({ expires_at: null, revoked_at: null });
  });
});

describe("revoking a key", () => {
  test("it stops working at once; revoking it again answers the same and keeps the first revocation's time", async () => {
    const key = await runOperation(deps, admin.createApiKey, session("developer"), {});
    expect(await works(key.apiKey)).toBe(true);
    expect(await runOperation(deps, admin.revokeApiKey, session("developer"), key.id)).toEqual({ id: key.id, revoked: true });
    const first = (await keyRow(key.id)).revoked_at;
    expect(first?.toISOString()).toBe(clock.toISOString());
    expect(await works(key.apiKey)).toBe(false);
    later(5);
    expect(await runOperation(deps, admin.revokeApiKey, OPERATOR, key.id)).toEqual({ id: key.id, revoked: true });
    expect((await keyRow(key.id)).revoked_at?.toISOString()).toBe(first?.toISOString());
  });
});

describe("listing keys", () => {
  test("a session sees its own merchant's keys of its mode, newest first, with status and no secret", async () => {
    const other = await runOperation(deps, admin.createMerchant, OPERATOR, { name: "Lista", currencies: [], methods: [] });
    later(1);
    const active = await runOperation(deps, admin.createApiKey, session("developer", other.merchantId), {});
    later(1);
    const revoked = await runOperation(deps, admin.createApiKey, session("developer", other.merchantId), {});
    await runOperation(deps, admin.revokeApiKey, session("developer", other.merchantId), revoked.id);
    later(1);
    const expiring = await runOperation(deps, admin.createApiKey, OPERATOR, {
      merchantId: other.merchantId,
      mode: "test",
      expiresAt: new Date(clock.getTime() + 1000).toISOString(),
    });
    later(2);
    const listed = await runOperation(deps, admin.listApiKeys, session("developer", other.merchantId), undefined);
    expect(listed.data.map((key) => [key.id, key.status, key.last4])).toEqual([
      [expiring.id, "expired", expiring.apiKey.slice(-4)],
      [revoked.id, "revoked", revoked.apiKey.slice(-4)],
      [active.id, "active", active.apiKey.slice(-4)],
      // The key createMerchant made for test mode; the live one is not listed.
      [expect.stringMatching(/^key_/), "active", other.testApiKey.slice(-4)],
    ]);
    expect(Object.keys(listed.data[0]!).sort()).toEqual(["created_at", "expires_at", "id", "last4", "last_used_at", "mode", "revoked_at", "status"]);
    expect(JSON.stringify(listed)).not.toContain(active.apiKey);
  });
});

describe("last used", () => {
  test("a burst of 100 requests writes last_used_at once; again only after the interval (60 s)", async () => {
    const key = await runOperation(deps, admin.createApiKey, session("developer"), {});
    expect((await keyRow(key.id)).last_used_at).toBeNull();
    const burst = () => Promise.all(Array.from({ length: 100 }, () => works(key.apiKey)));
    expect(new Set(await burst())).toEqual(new Set([true]));
    await keyUsesWritten(deps);
    const firstUse = clock.toISOString();
    expect((await keyRow(key.id)).last_used_at?.toISOString()).toBe(firstUse);
    expect(await writesOf(key.id)).toBe(1);

    later(59);
    await burst();
    await keyUsesWritten(deps);
    expect(await writesOf(key.id)).toBe(1);
    expect((await keyRow(key.id)).last_used_at?.toISOString()).toBe(firstUse);

    later(1);
    await burst();
    await keyUsesWritten(deps);
    expect(await writesOf(key.id)).toBe(2);
    expect((await keyRow(key.id)).last_used_at?.toISOString()).toBe(clock.toISOString());
  });

  test("two cores (each remembering on its own) still write a key at most once per interval between them", async () => {
    const key = await runOperation(deps, admin.createApiKey, session("developer"), {});
    let second: MikroORM | undefined;
    try {
      second = await openOrm({ databaseUrl: deps.config.databaseUrl, poolSize: 2 });
      const other: CoreDeps = { ...deps, orm: second };
      const burst = (on: CoreDeps) => Promise.all(Array.from({ length: 50 }, () => works(key.apiKey, on)));
      await Promise.all([burst(deps), burst(other)]);
      await Promise.all([keyUsesWritten(deps), keyUsesWritten(other)]);
      expect(await writesOf(key.id)).toBe(1);
      expect((await keyRow(key.id)).last_used_at?.toISOString()).toBe(clock.toISOString());
    } finally {
      await second?.close();
    }
  });

  test("a refused key (revoked) is not marked used, and a request does not wait for the write", async () => {
    const revoked = await runOperation(deps, admin.createApiKey, session("developer"), {});
    await runOperation(deps, admin.revokeApiKey, session("developer"), revoked.id);
    const writes = await writesOf(revoked.id);
    expect(await works(revoked.apiKey)).toBe(false);
    await keyUsesWritten(deps);
    expect(await keyRow(revoked.id)).toMatchObject({ last_used_at: null });
    expect(await writesOf(revoked.id)).toBe(writes);

    // Another transaction holds the key's row: the write waits for it, the requests do not.
    const held = await runOperation(deps, admin.createApiKey, session("developer"), {});
    let release!: () => void;
    const releasing = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holder = deps.orm.em.fork().transactional(async (tx) => {
      await db(tx).selectFrom("api_keys").select("id").where("id", "=", held.id).forUpdate().execute();
      locked();
      await releasing;
    });
    await lockTaken;
    try {
      expect(await Promise.all(Array.from({ length: 10 }, () => works(held.apiKey)))).toEqual(Array(10).fill(true));
      expect((await keyRow(held.id)).last_used_at).toBeNull();
    } finally {
      release();
      await holder;
    }
    await keyUsesWritten(deps);
    expect((await keyRow(held.id)).last_used_at?.toISOString()).toBe(clock.toISOString());
  });

  test("a request that fails after the key was found counts as a use; one refused before the key was looked at does not", async () => {
    const key = await runOperation(deps, admin.createApiKey, session("developer"), {});
    // Payment creation checks the Idempotency-Key before it looks the key up: no proof the key is real.
    expect(await codeOf(runOperation(deps, payments.create, presentApiKey(key.apiKey), { input: {} }))).toMatch(/^idempotency_key_required/);
    await keyUsesWritten(deps);
    expect((await keyRow(key.id)).last_used_at).toBeNull();
    // The runner resolved the key, then the payment was not found: the key was used.
    expect(await codeOf(runOperation(deps, payments.get, presentApiKey(key.apiKey), "pay_000000000000000000000000"))).toMatch(/^unknown_payment/);
    await keyUsesWritten(deps);
    expect((await keyRow(key.id)).last_used_at?.toISOString()).toBe(clock.toISOString());
  });

  test("the merchant's own key from createMerchant is tracked as well", async () => {
    later(120);
    expect(await works(mineTestKey)).toBe(true);
    await keyUsesWritten(deps);
    const listed = await runOperation(deps, admin.listApiKeys, session("developer"), undefined);
    const own = listed.data.find((key) => key.last4 === mineTestKey.slice(-4));
    expect(own?.last_used_at).toBe(clock.toISOString());
  });
});
