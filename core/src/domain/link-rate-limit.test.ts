// The rate-limit count against a real migrated database: exact under concurrency on one link (the
// hot case), who pays for an attempt (its client always; the link only for a well-formed attempt its
// client's limit let through), IPv6 clients by /64, and its asynchronous commit never reaching
// anything else (a payment's commit above all).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { OPERATOR } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import type { LinkKind } from "./link-input.ts";
import { admitBatchFailures, admitBatchSizes } from "./link-admit-batch.ts";
import { admitPayAttempt } from "./link-rate-limit.ts";
import { createLink } from "./links.ts";
import { createMerchant } from "./merchants.ts";
import { inTransaction, withoutTransaction } from "./unit-of-work.ts";

let database: MigratedDatabase | undefined;
let deps: CoreDeps;
const clock = new Date("2026-11-21T12:00:30.000Z");
let linkId: string;
let variableLinkId: string;

beforeAll(async () => {
  // Several connections, for attempts at once; sequential statements reuse the last one released (LIFO).
  database = await openMigratedDatabase({ poolSize: 8, now: () => clock });
  ({ deps } = database);
  const merchant = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Tienda", currencies: [], methods: [] }));
  const created = await inTransaction(deps, (tx) =>
    createLink(
      deps,
      tx,
      { kind: "merchant", merchantId: merchant.merchantId, mode: "test", via: "api_key" },
      {
        idempotencyKey: undefined,
        input: { title: "Camisa típica", currency: "GTQ", fixed_amount_minor: "15000" },
      },
    ),
  );
  linkId = created.value.id;
  const variable = await inTransaction(deps, (tx) =>
    createLink(
      deps,
      tx,
      { kind: "merchant", merchantId: merchant.merchantId, mode: "test", via: "api_key" },
      { idempotencyKey: undefined, input: { title: "Donación", currency: "GTQ", min_amount_minor: "1000", max_amount_minor: "90000" } },
    ),
  );
  variableLinkId = variable.value.id;
});

afterAll(() => database?.close());

// Counted together when attempts arrive together (the core's default), or one statement each (CREATE_BATCH=off).
const BATCHED = { on: true, max: 64, waitMs: 0 };
const limit = { linkRateLimit: { perIp: 1_000, perLink: 20, windowMs: 60_000 }, linkAdmitBatch: BATCHED };
/** A well-formed body for the test link (test mode, fixed amount). */
const FITS: LinkKind[] = ["test:fixed", "live:fixed"];
const settingNow = async () =>
  withoutTransaction(
    deps,
    async (tx) =>
      (
        await db(tx)
          .selectNoFrom((eb) => eb.fn<string>("current_setting", [eb.val("synchronous_commit")]).as("s"))
          .executeTakeFirstOrThrow()
      ).s,
  );

describe("admitPayAttempt", () => {
  test("50 concurrent attempts on one link from 50 addresses: exactly the limit's 20 admitted", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        withoutTransaction(deps, (tx) => admitPayAttempt(limit, tx, { linkId, clientIp: `10.0.0.${i + 1}`, fits: FITS }, clock)).then(
          (link) => (link?.id === linkId ? "admitted" : "missing"),
          (e: unknown) => (e instanceof DomainError ? `${e.code} ${e.retryAfterSeconds}` : String(e)),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === "admitted")).toHaveLength(20);
    // The window started at 12:00:00 and ends at 12:01:00: 30 s from the clock.
    expect(outcomes.filter((o) => o === "rate_limited 30")).toHaveLength(30);
    const counted = await withoutTransaction(deps, (tx) =>
      db(tx).selectFrom("link_rate_limits").select("attempts").where("bucket", "=", `link:${linkId}`).executeTakeFirstOrThrow(),
    );
    expect(counted.attempts).toBe(50);
  });

  test("its asynchronous commit is its own: the connection keeps synchronous_commit on, and so does a caller's transaction", async () => {
    expect(await settingNow()).toBe("on");
    await withoutTransaction(deps, (tx) => admitPayAttempt(limit, tx, { linkId, clientIp: "10.1.0.1", fits: FITS }, new Date(clock.getTime() + 60_000)));
    expect(await settingNow()).toBe("on");
    const inside = await inTransaction(deps, async (tx) => {
      await admitPayAttempt(limit, tx, { linkId, clientIp: "10.1.0.2", fits: FITS }, new Date(clock.getTime() + 60_000));
      const s = await db(tx)
        .selectNoFrom((eb) => eb.fn<string>("current_setting", [eb.val("synchronous_commit")]).as("s"))
        .executeTakeFirstOrThrow();
      return { value: s.s, events: [] };
    });
    expect(inside).toBe("on");
  });

  // Each test in its own window (the clock moves on a minute per test), so counts start at zero.
  let minute = 10;
  const nextWindow = () => new Date(clock.getTime() + 60_000 * minute++);
  const strict = { linkRateLimit: { perIp: 3, perLink: 5, windowMs: 60_000 }, linkAdmitBatch: BATCHED };
  const attempt = (at: Date, clientIp: string, fits: LinkKind[] = FITS) =>
    withoutTransaction(deps, (tx) => admitPayAttempt(strict, tx, { linkId, clientIp, fits }, at)).then(
      () => "admitted",
      (e: unknown) => (e instanceof DomainError ? `${e.code}: ${e.message}` : String(e)),
    );
  const counters = async (at: Date) =>
    Object.fromEntries(
      (
        await withoutTransaction(deps, (tx) =>
          db(tx)
            .selectFrom("link_rate_limits")
            .select(["bucket", "attempts"])
            .where("window_start", "=", new Date(Math.floor(at.getTime() / 60_000) * 60_000))
            .execute(),
        )
      ).map((r) => [r.bucket, r.attempts]),
    );

  test("an attempt refused by its client's limit counts against that client only, never the link", async () => {
    const at = nextWindow();
    const outcomes = [];
    for (let i = 0; i < 10; i++) outcomes.push(await attempt(at, "203.0.113.1"));
    expect(outcomes.filter((o) => o === "admitted")).toHaveLength(3);
    expect(outcomes.slice(3).every((o) => o.startsWith("rate_limited: Too many payment attempts from this address"))).toBe(true);
    expect(await counters(at)).toEqual({ "ip:203.0.113.1": 10, [`link:${linkId}`]: 3 });
    expect(await attempt(at, "203.0.113.2")).toBe("admitted");
    expect(await attempt(at, "203.0.113.3")).toBe("admitted");
    expect(await attempt(at, "203.0.113.4")).toMatch(/^rate_limited: Too many payment attempts on this link/);
  });

  test("a malformed attempt counts against its client, not the link; once the link is full it is refused first", async () => {
    const at = nextWindow();
    // Well-formed for other kinds of link only (a live variable link's body), or for none.
    expect(await attempt(at, "203.0.113.5", ["live:variable"])).toBe("admitted");
    expect(await attempt(at, "203.0.113.5", [])).toBe("admitted");
    expect(await counters(at)).toEqual({ "ip:203.0.113.5": 2 });
    for (let i = 0; i < 5; i++) expect(await attempt(at, `198.51.100.${i}`)).toBe("admitted");
    expect(await attempt(at, "203.0.113.6", [])).toMatch(/^rate_limited: Too many payment attempts on this link/);
    expect((await counters(at))[`link:${linkId}`]).toBe(5);
  });

  test("IPv6 clients in one /64 share a counter; an IPv4-mapped address is its IPv4 address", async () => {
    const at = nextWindow();
    expect(await attempt(at, "2001:db8:1:2::1")).toBe("admitted");
    expect(await attempt(at, "2001:db8:1:2:aaaa::9")).toBe("admitted");
    expect(await attempt(at, "2001:DB8:1:2:FFFF:FFFF:FFFF:FFFF")).toBe("admitted");
    expect(await attempt(at, "2001:db8:1:2::2")).toMatch(/^rate_limited: Too many payment attempts from this address/);
    expect(await attempt(at, "2001:db8:1:3::1")).toBe("admitted");
    expect(await counters(at)).toMatchObject({ "ip:2001:db8:1:2::/64": 4, "ip:2001:db8:1:3::/64": 1 });
    const next = nextWindow();
    for (const spelling of ["203.0.113.9", "::ffff:203.0.113.9", "::ffff:cb00:7109"]) expect(await attempt(next, spelling)).toBe("admitted");
    expect(await attempt(next, "203.0.113.9")).toMatch(/from this address/);
    expect(await counters(next)).toMatchObject({ "ip:203.0.113.9": 4 });
  });

  test("50 concurrent attempts from one client: exactly its limit admitted, and only those counted on the link", async () => {
    const at = nextWindow();
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => attempt(at, "203.0.113.10")));
    expect(outcomes.filter((o) => o === "admitted")).toHaveLength(3);
    expect(await counters(at)).toEqual({ "ip:203.0.113.10": 50, [`link:${linkId}`]: 3 });
  });
  test("attempts counted together get exactly what one statement each, in arrival order, would have given them", async () => {
    const policy = { perIp: 4, perLink: 6, windowMs: 60_000 };
    const batched = { linkRateLimit: policy, linkAdmitBatch: BATCHED };
    const unbatched = { linkRateLimit: policy, linkAdmitBatch: { ...BATCHED, on: false } };
    // A fixed pseudo-random mix (the same for both runs): ten clients, two links and one that never
    // existed, bodies that fit the link or not; enough to fill clients and links alike.
    const neverExisted = `link_${"0".repeat(24)}`;
    const bodies: LinkKind[][] = [FITS, FITS, FITS, [], ["test:variable"], ["live:variable"]];
    let seed = 20261126;
    const pick = <T>(from: T[]): T => from[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % from.length]!;
    const attempts = Array.from({ length: 60 }, () => ({
      linkId: pick([linkId, linkId, linkId, variableLinkId, neverExisted]),
      clientIp: `192.0.2.${pick([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])}`,
      fits: pick(bodies),
    }));
    const outcome = (p: Promise<unknown>) =>
      p.then(
        (link) => (link === undefined ? "unknown link" : `admitted ${(link as { id: string }).id}`),
        (e: unknown) => (e instanceof DomainError ? `${e.code}: ${e.message} (${e.retryAfterSeconds})` : String(e)),
      );

    const serialAt = nextWindow();
    const serial: string[] = [];
    for (const a of attempts) serial.push(await outcome(withoutTransaction(deps, (tx) => admitPayAttempt(unbatched, tx, a, serialAt))));

    const togetherAt = nextWindow();
    /** Attempts counted in batches of several so far. */
    const attemptsInBatches = () => admitBatchSizes.reduce((n, count, size) => n + (size > 1 ? count * size : 0), 0);
    const batchedBefore = attemptsInBatches();
    const failuresBefore = admitBatchFailures.count;
    // Submitted in this order in one tick (admitPayAttempt does not wait before it queues), so this is the arrival order.
    const together = await Promise.all(attempts.map((a) => outcome(withoutTransaction(deps, (tx) => admitPayAttempt(batched, tx, a, togetherAt)))));

    expect(together).toEqual(serial);
    expect(serial.filter((o) => o.startsWith("admitted")).length).toBeGreaterThan(0);
    // Every rule came into play: refusals for a client and for a link, and the unknown link.
    expect(serial.some((o) => o.includes("from this address"))).toBe(true);
    expect(serial.some((o) => o.includes("on this link"))).toBe(true);
    expect(serial).toContain("unknown link");
    expect(await counters(togetherAt)).toEqual(await counters(serialAt));
    // Most of them really went in batches, and no batch fell back to one statement each.
    expect(attemptsInBatches() - batchedBefore).toBeGreaterThanOrEqual(50);
    expect(admitBatchFailures.count).toBe(failuresBefore);
  });
});
