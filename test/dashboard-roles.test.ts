// Roles hold in the core (DESIGN §5): every dashboard mutation, sent by a session of each role that
// may not make it, is refused `unauthorized` and changes nothing; the least role that may, succeeds.
// One merchant's session never reaches another's objects, and test and live never mix, whatever
// ids are sent. The sessions call the core as the facade forwards them (its token + the session).
import { beforeAll, describe, expect, test } from "vitest";
import type { MerchantRole } from "../core/src/domain/caller.ts";
import { databaseSnapshot } from "./support/db-snapshot.ts";
import { dashMutation, dashQuery, seedUser, signedIn } from "./support/dashboard.ts";
import { createOk, driveToState, useStack } from "./support/expect.ts";
import { createLink } from "./support/link-fixtures.ts";
import type { Merchant } from "./support/stack.ts";

const stack = useStack();
const ROLES: readonly MerchantRole[] = ["viewer", "developer", "admin", "owner"];
let a: Merchant;
let b: Merchant;
const session = {} as Record<MerchantRole, string>;
let foreignOwner: string;
/** A's fixtures, each for one mutation. */
const fixture = {} as {
  captured: string;
  pending: string;
  link: string;
  changeTarget: string;
  removeTarget: string;
  owner: { id: string };
  revokeKey: string;
  rollKey: string;
  endpoint: string;
  doomedEndpoint: string;
  delivery: string;
};

/** The database but for sessions' last-seen times, which a refused request may move (its session was used). */
async function snapshot(): Promise<Record<string, string>> {
  const { dashboard_sessions: _moving, ...rest } = await databaseSnapshot(stack());
  const sessions = await stack().sql("select id, user_id, merchant_id, mode from dashboard_sessions order by id");
  return { ...rest, dashboard_sessions: JSON.stringify(sessions) };
}

beforeAll(async () => {
  const s = stack();
  a = await s.admin.createMerchant({ name: "Tienda A" });
  b = await s.admin.createMerchant({ name: "Tienda B" });
  for (const role of ROLES) session[role] = await signedIn(s, await seedUser(s, a.merchantId, role));
  foreignOwner = await signedIn(s, await seedUser(s, b.merchantId, "owner"));
  const captured = await createOk(s.http, a.testApiKey, { amount: "20000" });
  await driveToState(s, captured.id, "captured");
  fixture.captured = captured.id;
  fixture.pending = (await createOk(s.http, a.testApiKey, { amount: "15000" })).id;
  fixture.link = (await createLink(s, a)).id;
  fixture.changeTarget = (await seedUser(s, a.merchantId, "viewer")).id;
  fixture.removeTarget = (await seedUser(s, a.merchantId, "viewer")).id;
  // Available money in GTQ (test mode) for "pay out now".
  const settled = await createOk(s.http, a.testApiKey, { amount: "50000" });
  await driveToState(s, settled.id, "available_to_merchant");
  for (const key of ["revokeKey", "rollKey"] as const) fixture[key] = (await dashMutation(s, "apiKeys.create", {}, { session: session.developer })).data.id;
  // Webhook endpoints (loopback is allowed in test mode here) and a failed delivery to replay (this
  // stack has no dispatcher, so nothing sends or changes it behind the test's back).
  const endpoint = async () =>
    (await dashMutation(s, "webhooks.create", { url: "http://127.0.0.1:9/hooks", enabled_events: [] }, { session: session.owner })).data.endpoint.id;
  fixture.endpoint = await endpoint();
  fixture.doomedEndpoint = await endpoint();
  fixture.delivery = "dlv_" + "0".repeat(23) + "1";
  await s.sql(
    `insert into webhook_deliveries (id, event_id, event_type, endpoint_id, merchant_id, mode, status, attempt_count, round_attempts, next_attempt_at,
       claimed_until, last_attempt_at, last_http_status, last_error, created_at, updated_at)
     values ($1, $2, 'payment.succeeded', $3, $4, 'test', 'failed', 2, 2, null, null, now(), 500, null, now(), now())`,
    [fixture.delivery, "evt_" + "0".repeat(23) + "1", fixture.endpoint, a.merchantId],
  );
});

const ROLES_LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>`;

/** Every session mutation of the dashboard, its least role, and a request that role may make. */
const MUTATIONS: Array<{ path: string; least: MerchantRole; input: () => unknown }> = [
  { path: "payments.refund", least: "admin", input: () => ({ payment_id: fixture.captured, amount: "5000", reason: "requested_by_customer" }) },
  { path: "payments.cancel", least: "admin", input: () => ({ id: fixture.pending }) },
  { path: "links.create", least: "admin", input: () => ({ title: "Camisa", currency: "GTQ", fixed_amount_minor: "12500" }) },
  { path: "links.deactivate", least: "admin", input: () => ({ id: fixture.link }) },
  { path: "bankAccounts.add", least: "admin", input: () => ({ currency: "GTQ", account_number: "1234567890", bank_name: "Banco Industrial" }) },
  { path: "payouts.payNow", least: "admin", input: () => ({ currency: "GTQ" }) },
  { path: "team.invite", least: "admin", input: () => ({ email: "nuevo@example.com", role: "viewer" }) },
  { path: "team.changeRole", least: "admin", input: () => ({ user_id: fixture.changeTarget, role: "developer" }) },
  { path: "team.remove", least: "admin", input: () => ({ user_id: fixture.removeTarget }) },
  { path: "apiKeys.create", least: "developer", input: () => ({}) },
  { path: "apiKeys.revoke", least: "developer", input: () => ({ id: fixture.revokeKey }) },
  { path: "apiKeys.roll", least: "developer", input: () => ({ id: fixture.rollKey, expires_in_seconds: 3600 }) },
  { path: "webhooks.create", least: "developer", input: () => ({ url: "http://127.0.0.1:9/made", enabled_events: ["payment.succeeded"] }) },
  { path: "webhooks.update", least: "developer", input: () => ({ id: fixture.endpoint, enabled_events: ["refund.succeeded"] }) },
  { path: "webhooks.revealSecret", least: "developer", input: () => ({ id: fixture.endpoint }) },
  { path: "webhooks.rotateSecret", least: "developer", input: () => ({ id: fixture.endpoint }) },
  { path: "webhooks.replay", least: "developer", input: () => ({ endpoint_id: fixture.endpoint, id: fixture.delivery }) },
  { path: "webhooks.replayFailed", least: "developer", input: () => ({ endpoint_id: fixture.endpoint, since: "2020-01-01T00:00:00Z" }) },
  { path: "webhooks.sendTest", least: "developer", input: () => ({ endpoint_id: fixture.endpoint, type: "payment.succeeded" }) },
  { path: "webhooks.delete", least: "developer", input: () => ({ id: fixture.doomedEndpoint }) },
  { path: "settings.update", least: "admin", input: () => ({ trade_name: "Tienda Roles", brand_color: "#1d4ed8" }) },
  { path: "settings.uploadLogo", least: "admin", input: () => ({ content_type: "image/svg+xml", data_base64: Buffer.from(ROLES_LOGO).toString("base64") }) },
  { path: "settings.removeLogo", least: "admin", input: () => undefined },
];

describe("each session mutation, by role", () => {
  // In order: bank account before pay-out-now.
  test.each(MUTATIONS.map((m) => [m.path, m] as const))(
    "%s: refused to every role below its least, changing nothing; made by that role",
    async (_, mutation) => {
      const below = ROLES.slice(0, ROLES.indexOf(mutation.least));
      expect(below.length).toBeGreaterThan(0);
      for (const role of below) {
        const before = await snapshot();
        const answer = await dashMutation(stack(), mutation.path, mutation.input(), { session: session[role] });
        expect({ role, status: answer.status, code: answer.code }).toEqual({ role, status: 401, code: "unauthorized" });
        expect(answer.message).toContain(`needs the ${mutation.least} role`);
        expect(await snapshot()).toEqual(before);
      }
      const audited = (await stack().sql("select count(*)::int as n from audit_log where merchant_id = $1", [a.merchantId]))[0]!.n as number;
      const made = await dashMutation(stack(), mutation.path, mutation.input(), { session: session[mutation.least] });
      expect(made.status, made.message).toBe(200);
      // Audited once it succeeded: who, which merchant and mode, what, on what.
      const [row] = await stack().sql("select action, mode, object_id, client_ip from audit_log where merchant_id = $1 order by seq desc limit 1", [
        a.merchantId,
      ]);
      expect((await stack().sql("select count(*)::int as n from audit_log where merchant_id = $1", [a.merchantId]))[0]!.n).toBe(audited + 1);
      expect(row).toMatchObject({ mode: "test", client_ip: "203.0.113.10" });
      expect(row!.object_id).toBeTruthy();
    },
  );

  test("the refund made in the dashboard is the refund the API shows", async () => {
    const res = await stack().http.get(`/v1/refunds?payment_id=${fixture.captured}`, { key: a.testApiKey });
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0]).toMatchObject({ payment_id: fixture.captured, amount: "5000", status: "succeeded" });
  });

  test("a role change and a removal hold at once: the removed member's session ends", async () => {
    const s = stack();
    const user = await seedUser(s, a.merchantId, "developer");
    const theirs = await signedIn(s, user);
    expect((await dashMutation(s, "team.changeRole", { user_id: user.id, role: "admin" }, { session: session.owner })).status).toBe(200);
    expect((await dashQuery(s, "auth.me", undefined, { session: theirs })).data.role).toBe("admin");
    expect((await dashMutation(s, "team.remove", { user_id: user.id }, { session: session.owner })).status).toBe(200);
    const after = await dashQuery(s, "auth.me", undefined, { session: theirs });
    expect(after.code).toBe("unauthorized");
    expect(after.cleared).toBe(true);
  });
});

describe("owners' memberships", () => {
  test("an admin may not invite an owner, nor change or remove one; an owner may; the last owner stays", async () => {
    const s = stack();
    const m = await s.admin.createMerchant({ name: "Tienda Dueños" });
    const owner = await seedUser(s, m.merchantId, "owner");
    const admin = await seedUser(s, m.merchantId, "admin");
    const ownerSession = await signedIn(s, owner);
    const adminSession = await signedIn(s, admin);
    const before = await snapshot();
    for (const [path, input] of [
      ["team.invite", { email: "jefa@example.com", role: "owner" }],
      ["team.changeRole", { user_id: owner.id, role: "viewer" }],
      ["team.changeRole", { user_id: admin.id, role: "owner" }],
      ["team.remove", { user_id: owner.id }],
    ] as const) {
      expect((await dashMutation(s, path, input, { session: adminSession })).code, path).toBe("unauthorized");
    }
    expect(await snapshot()).toEqual(before);
    // The only owner can neither demote nor remove themselves.
    for (const [path, input] of [
      ["team.changeRole", { user_id: owner.id, role: "admin" }],
      ["team.remove", { user_id: owner.id }],
    ] as const) {
      const answer = await dashMutation(s, path, input, { session: ownerSession });
      expect(answer.code).toBe("validation_error");
      expect(answer.message).toContain("last owner");
    }
    expect(await snapshot()).toEqual(before);
    // With a second owner, the first may step down.
    expect((await dashMutation(s, "team.changeRole", { user_id: admin.id, role: "owner" }, { session: ownerSession })).status).toBe(200);
    expect((await dashMutation(s, "team.changeRole", { user_id: owner.id, role: "viewer" }, { session: ownerSession })).status).toBe(200);
    const members = await dashQuery(s, "team.members", undefined, { session: adminSession });
    expect(members.data.data.map((x: { user_id: string; role: string }) => [x.user_id, x.role])).toEqual([
      [owner.id, "viewer"],
      [admin.id, "owner"],
    ]);
  });

  test("the Team page's invite URL is shown once, for the session's own merchant", async () => {
    const answer = await dashMutation(stack(), "team.invite", { email: "Colega@Example.com", role: "developer" }, { session: session.owner });
    expect(answer.data).toMatchObject({ email: "colega@example.com", merchant_id: a.merchantId, role: "developer" });
    expect(answer.data.invite_url).toMatch(/\/dashboard\/invite\/[A-Za-z0-9_-]{43}$/);
    expect((await dashMutation(stack(), "team.invite", { email: "colega@example.com", role: "viewer" }, { session: session.owner })).code).toBe(
      "validation_error",
    );
    // A merchant named in the input is no field of the procedure.
    expect(
      (await dashMutation(stack(), "team.invite", { email: "x@example.com", role: "viewer", merchant_id: b.merchantId }, { session: session.owner })).code,
    ).toBe("validation_error");
  });
});

describe("one merchant's session never reaches another merchant's objects", () => {
  test("B's owner, sending A's ids, is refused as if they did not exist, and nothing changes", async () => {
    const s = stack();
    const pending = (await createOk(s.http, a.testApiKey, { amount: "16000" })).id;
    const captured = await createOk(s.http, a.testApiKey, { amount: "17000" });
    await driveToState(s, captured.id, "captured");
    const link = (await createLink(s, a)).id;
    const member = (await seedUser(s, a.merchantId, "viewer")).id;
    const key = (await dashMutation(s, "apiKeys.create", {}, { session: session.developer })).data.id as string;
    const before = await snapshot();
    const tries: Array<[string, unknown, string]> = [
      ["payments.cancel", { id: pending }, "unknown_payment"],
      ["payments.refund", { payment_id: captured.id }, "unknown_payment"],
      ["links.deactivate", { id: link }, "unknown_payment_link"],
      ["team.changeRole", { user_id: member, role: "owner" }, "validation_error"],
      ["team.remove", { user_id: member }, "validation_error"],
      ["apiKeys.revoke", { id: key }, "validation_error"],
      ["apiKeys.roll", { id: key, expires_in_seconds: 0 }, "validation_error"],
    ];
    for (const [path, input, code] of tries) expect((await dashMutation(s, path, input, { session: foreignOwner })).code, path).toBe(code);
    expect(await snapshot()).toEqual(before);
    const members = await dashQuery(s, "team.members", undefined, { session: foreignOwner });
    expect(members.data.data.map((x: { user_id: string }) => x.user_id)).not.toContain(member);
    expect((await dashQuery(s, "apiKeys.list", undefined, { session: foreignOwner })).data.data.map((x: { id: string }) => x.id)).not.toContain(key);
    const log = await dashQuery(s, "security.auditLog", { limit: 100 }, { session: foreignOwner });
    expect(log.data.data.every((e: { user_id: string | null }) => e.user_id !== null)).toBe(true);
    expect(
      (await s.sql("select distinct merchant_id from audit_log where seq = any($1::bigint[])", [log.data.data.map((e: { id: string }) => e.id)])).map(
        (r) => r.merchant_id,
      ),
    ).toEqual([b.merchantId]);
  });

  test("test and live never mix: a test-mode session does not reach a live payment; switched to live it does", async () => {
    const s = stack();
    const live = (await createOk(s.http, a.liveApiKey, { amount: "18000" })).id;
    const admin = await seedUser(s, a.merchantId, "admin");
    const mine = await signedIn(s, admin);
    const before = await snapshot();
    expect((await dashMutation(s, "payments.cancel", { id: live }, { session: mine })).code).toBe("unknown_payment");
    expect(await snapshot()).toEqual(before);
    expect((await dashMutation(s, "auth.switchMode", { mode: "live" }, { session: mine })).data.mode).toBe("live");
    const canceled = await dashMutation(s, "payments.cancel", { id: live }, { session: mine });
    expect(canceled.data).toMatchObject({ id: live, status: "canceled" });
    // And a test payment is out of reach in live mode.
    const test = (await createOk(s.http, a.testApiKey, { amount: "19000" })).id;
    expect((await dashMutation(s, "payments.cancel", { id: test }, { session: mine })).code).toBe("unknown_payment");
  });
});
