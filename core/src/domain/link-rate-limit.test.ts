// The rate-limit count against a real migrated database: exact under concurrency on one link (the
// hot case), and its asynchronous commit never reaching anything else (a payment's commit above all).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { OPERATOR } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { admitPayAttempt } from "./link-rate-limit.ts";
import { createLink } from "./links.ts";
import { createMerchant } from "./merchants.ts";
import { inTransaction, withoutTransaction } from "./unit-of-work.ts";

let database: MigratedDatabase | undefined;
let deps: CoreDeps;
const clock = new Date("2026-11-21T12:00:30.000Z");
let linkId: string;

beforeAll(async () => {
  // Several connections, for attempts at once; sequential statements reuse the last one released (LIFO).
  database = await openMigratedDatabase({ poolSize: 8, now: () => clock });
  ({ deps } = database);
  const merchant = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Tienda", currencies: [], methods: [] }));
  const created = await inTransaction(deps, (tx) =>
    createLink(deps, tx, { kind: "merchant", merchantId: merchant.merchantId, mode: "test" }, {
      idempotencyKey: undefined,
      input: { title: "Camisa típica", currency: "GTQ", fixed_amount_minor: "15000" },
    }));
  linkId = (JSON.parse(created.response) as { id: string }).id;
});

afterAll(() => database?.close());

const limit = { linkRateLimit: { perIp: 1_000, perLink: 20, windowMs: 60_000 } };
const settingNow = async () =>
  withoutTransaction(deps, async (tx) => (await db(tx).selectNoFrom((eb) => eb.fn<string>("current_setting", [eb.val("synchronous_commit")]).as("s")).executeTakeFirstOrThrow()).s);

describe("admitPayAttempt", () => {
  test("50 concurrent attempts on one link from 50 addresses: exactly the limit's 20 admitted", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        withoutTransaction(deps, (tx) => admitPayAttempt(limit, tx, linkId, `10.0.0.${i + 1}`, clock)).then(
          (link) => (link?.id === linkId ? "admitted" : "missing"),
          (e: unknown) => (e instanceof DomainError ? `${e.code} ${e.retryAfterSeconds}` : String(e)),
        )),
    );
    expect(outcomes.filter((o) => o === "admitted")).toHaveLength(20);
    // The window started at 12:00:00 and ends at 12:01:00: 30 s from the clock.
    expect(outcomes.filter((o) => o === "rate_limited 30")).toHaveLength(30);
    const counted = await withoutTransaction(deps, (tx) =>
      db(tx).selectFrom("link_rate_limits").select("attempts").where("bucket", "=", `link:${linkId}`).executeTakeFirstOrThrow());
    expect(counted.attempts).toBe(50);
  });

  test("its asynchronous commit is its own: the connection keeps synchronous_commit on, and so does a caller's transaction", async () => {
    expect(await settingNow()).toBe("on");
    await withoutTransaction(deps, (tx) => admitPayAttempt(limit, tx, linkId, "10.1.0.1", new Date(clock.getTime() + 60_000)));
    expect(await settingNow()).toBe("on");
    const inside = await inTransaction(deps, async (tx) => {
      await admitPayAttempt(limit, tx, linkId, "10.1.0.2", new Date(clock.getTime() + 60_000));
      const s = await db(tx).selectNoFrom((eb) => eb.fn<string>("current_setting", [eb.val("synchronous_commit")]).as("s")).executeTakeFirstOrThrow();
      return { value: s.s, events: [] };
    });
    expect(inside).toBe("on");
  });
});
