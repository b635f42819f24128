// Dashboard identity across processes (DESIGN §5, dashboard contract): the core's dashboard
// procedures called as the facade calls them — its own credential, the browser's session token,
// address and User-Agent — against real cores and PostgreSQL.
import * as fs from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { useStack } from "./support/expect.ts";
import type { HttpClient } from "./support/http.ts";
import type { Merchant } from "./support/stack.ts";
import { seedDashboardOwner, SANDBOX_OWNER_EMAIL } from "../core/src/devstack/dashboard-owner.ts";
import { totpCode } from "../core/src/domain/dashboard/totp.ts";
import { dashMutation, dashQuery, seedUser, signedIn } from "./support/dashboard.ts";

const stack = useStack({ env: { DASHBOARD_SESSION_IDLE: "4s", DASHBOARD_SESSION_MAX: "9s" } });
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Panel" });
});

describe("signing in", () => {
  test("the right password opens a session: its token only in X-Paytami-Session-Set, the page gets who is signed in", async () => {
    const user = await seedUser(stack(), m.merchantId, "owner");
    const answer = await dashMutation(stack(), "auth.signIn", { email: user.email.toUpperCase(), password: user.password }, { userAgent: "Firefox/140" });
    expect(answer.status).toBe(200);
    expect(answer.issued).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(answer.maxAge).toBe(9);
    expect(JSON.stringify(answer.data)).not.toContain(answer.issued);
    expect(answer.data).toEqual({
      user: { id: user.id, email: user.email, totp_enabled: false },
      memberships: [{ merchant_id: m.merchantId, merchant_name: "Tienda Panel", role: "owner" }],
      merchant_id: m.merchantId,
      mode: "test",
      role: "owner",
      time_zone: "America/Guatemala",
      default_language: null,
    });
    const me = await dashQuery(stack(), "auth.me", undefined, { session: answer.issued });
    expect(me.data.user.email).toBe(user.email);
    // Stored as its digest only, with where it came from.
    const rows = await stack().sql<{ digest: string; user_agent: string; client_ip: string }>(
      "select digest, user_agent, client_ip from dashboard_sessions where user_id = $1",
      [user.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.digest).not.toContain(answer.issued!);
    expect(rows[0]).toMatchObject({ user_agent: "Firefox/140", client_ip: "203.0.113.10" });
  });

  test("a new token at each sign-in", async () => {
    const user = await seedUser(stack(), m.merchantId, "viewer");
    const first = await signedIn(stack(), user);
    const second = await signedIn(stack(), user);
    expect(second).not.toBe(first);
  });

  test("a wrong password and an unknown e-mail get the same answer, no session, and both are audited", async () => {
    const user = await seedUser(stack(), m.merchantId, "viewer");
    const wrong = await dashMutation(stack(), "auth.signIn", { email: user.email, password: "not the password" }, { clientIp: "198.51.100.7" });
    const unknown = await dashMutation(
      stack(),
      "auth.signIn",
      { email: `nobody-${user.id}@example.com`, password: "not the password" },
      { clientIp: "198.51.100.7" },
    );
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(401);
      expect(answer.code).toBe("unauthorized");
      expect(answer.issued).toBeUndefined();
    }
    expect(unknown.message).toBe(wrong.message);
    const audited = await stack().sql("select action, user_id from audit_log where client_ip = '198.51.100.7' order by seq");
    expect(audited).toEqual([
      { action: "sign_in_failed", user_id: user.id },
      { action: "sign_in_failed", user_id: null },
    ]);
  });

  test("in the same time: an unknown e-mail costs a password check too (median within a factor of 2 of a wrong password's)", async () => {
    const users = await Promise.all(Array.from({ length: 9 }, () => seedUser(stack(), m.merchantId, "viewer")));
    const timed = async (email: string, i: number) => {
      const started = performance.now();
      const answer = await dashMutation(stack(), "auth.signIn", { email, password: "not the password" }, { clientIp: `198.51.100.${120 + i}` });
      expect(answer.code).toBe("unauthorized");
      return performance.now() - started;
    };
    const wrong: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so that the machine's load weighs on both alike; one attempt per account and address (no throttle).
    for (let i = 0; i < users.length; i++) {
      wrong.push(await timed(users[i]!.email, i));
      unknown.push(await timed(`nobody-${i}-${users[i]!.id}@example.com`, i + 50));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const ratio = median(unknown) / median(wrong);
    expect(ratio, `unknown ${median(unknown).toFixed(1)} ms, wrong ${median(wrong).toFixed(1)} ms`).toBeGreaterThan(0.5);
    expect(ratio, `unknown ${median(unknown).toFixed(1)} ms, wrong ${median(wrong).toFixed(1)} ms`).toBeLessThan(2);
  });

  test("signing out ends the session and tells the facade to drop its cookie", async () => {
    const user = await seedUser(stack(), m.merchantId, "viewer");
    const session = await signedIn(stack(), user);
    const out = await dashMutation(stack(), "auth.signOut", undefined, { session });
    expect(out.status).toBe(200);
    expect(out.cleared).toBe(true);
    const after = await dashQuery(stack(), "auth.me", undefined, { session });
    expect(after.code).toBe("unauthorized");
    expect(after.cleared).toBe(true);
    expect(await stack().sql("select action from audit_log where user_id = $1 order by seq", [user.id])).toEqual([
      { action: "sign_in" },
      { action: "sign_out" },
    ]);
  });
});

describe("credentials", () => {
  test("dashboard procedures take the facade's credential only; the operator's opens none of them", async () => {
    const user = await seedUser(stack(), m.merchantId, "owner");
    const session = await signedIn(stack(), user);
    for (const bearer of [stack().internalToken, stack().dispatcherToken, "x".repeat(48)]) {
      const me = await dashQuery(stack(), "auth.me", undefined, { session, bearer });
      expect(me.code).toBe("unauthorized");
      const signIn = await dashMutation(stack(), "auth.signIn", { email: user.email, password: user.password }, { bearer });
      expect(signIn.code).toBe("unauthorized");
      expect(signIn.issued).toBeUndefined();
    }
  });

  test("no session, or junk for one, is refused", async () => {
    expect((await dashQuery(stack(), "auth.me", undefined)).code).toBe("unauthorized");
    const junk = await dashQuery(stack(), "auth.me", undefined, { session: "A".repeat(43) });
    expect(junk.code).toBe("unauthorized");
    expect(junk.cleared).toBe(true);
  });
});

describe("timeouts", () => {
  test("a session unused for DASHBOARD_SESSION_IDLE has ended", async () => {
    const user = await seedUser(stack(), m.merchantId, "viewer");
    const session = await signedIn(stack(), user);
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    const me = await dashQuery(stack(), "auth.me", undefined, { session });
    expect(me.code).toBe("unauthorized");
    expect(me.cleared).toBe(true);
  });

  test("last seen is written at most every half idle timeout (here 2 s), not on every request", async () => {
    const user = await seedUser(stack(), m.merchantId, "viewer");
    const session = await signedIn(stack(), user);
    const lastSeen = async () =>
      (await stack().sql<{ t: string }>("select last_seen_at::text as t from dashboard_sessions where user_id = $1", [user.id]))[0]!.t;
    const first = await lastSeen();
    for (let i = 0; i < 3; i++) expect((await dashQuery(stack(), "auth.me", undefined, { session })).status).toBe(200);
    expect(await lastSeen()).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await dashQuery(stack(), "auth.me", undefined, { session })).status).toBe(200);
    expect(await lastSeen()).not.toBe(first);
  });

  test("a busy session still ends DASHBOARD_SESSION_MAX after its sign-in", async () => {
    const user = await seedUser(stack(), m.merchantId, "viewer");
    const session = await signedIn(stack(), user);
    const started = Date.now();
    // Used every second: never idle, so only the absolute timeout can end it.
    while (Date.now() - started < 8_000) {
      expect((await dashQuery(stack(), "auth.me", undefined, { session })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 9_500 - Date.now())));
    const me = await dashQuery(stack(), "auth.me", undefined, { session });
    expect(me.code).toBe("unauthorized");
    expect(me.cleared).toBe(true);
  });
});

/** Every token a test saw issued: none may appear in any process's log (checked last). */
const issuedTokens: string[] = [];
const remember = (token: string | undefined) => {
  if (token) issuedTokens.push(token);
  return token;
};
const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

describe("sign-in throttling (DASHBOARD_LOGIN_LIMIT: 5 per account, 20 per client IP, 15 minutes), across two facades and two cores", () => {
  let second: string;
  let facades: HttpClient[];
  beforeAll(async () => {
    // A second facade + core pair on the same database, as behind a load balancer.
    facades = [stack().http, await stack().addInstance()];
    second = stack().coreHttpUrls()[1]!;
  });

  /** dashboard.auth.signIn as the app sends it (httpBatchLink), through one facade. */
  const signInThrough = async (facade: HttpClient, email: string, password: string) => {
    const res = await facade.request("POST", "/dashboard/trpc/dashboard.auth.signIn?batch=1", {
      headers: { "content-type": "application/json", origin: stack().publicBaseUrl },
      body: Buffer.from(JSON.stringify({ 0: { email, password } })),
    });
    return { status: res.status, error: res.json[0]?.error, setCookie: res.header("set-cookie"), retryAfter: res.header("retry-after") };
  };

  test("the sixth failure for one account, alternating between the two facades, is refused by either, the right password included", async () => {
    const user = await seedUser(stack(), m.merchantId, "viewer");
    for (let i = 0; i < 5; i++) {
      const answer = await signInThrough(facades[i % 2]!, user.email, `wrong ${i} password`);
      expect({ i, status: answer.status, code: answer.error?.data?.paytami_code }).toEqual({ i, status: 401, code: "unauthorized" });
      expect(answer.setCookie).toBeUndefined();
    }
    for (const facade of facades) {
      const refused = await signInThrough(facade, user.email, user.password);
      expect(refused.status).toBe(429);
      expect(refused.error.data.paytami_code).toBe("rate_limited");
      expect(refused.setCookie).toBeUndefined();
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(15 * 60);
    }
    // The five wrong passwords are audited as the user's failures; the refusals name nobody (the password was never checked).
    const failures = await stack().sql("select count(*)::int as n from audit_log where action = 'sign_in_failed' and user_id = $1", [user.id]);
    expect(failures[0]!.n).toBe(5);
    expect(await stack().sql("select id from dashboard_sessions where user_id = $1", [user.id])).toEqual([]);
  });

  test("the sixth failure for one account in the window is refused on either core, the right password included", async () => {
    const user = await seedUser(stack(), m.merchantId, "viewer");
    for (let i = 0; i < 5; i++) {
      const answer = await dashMutation(
        stack(),
        "auth.signIn",
        { email: user.email, password: `wrong ${i} password` },
        { clientIp: `192.0.2.${i + 1}`, ...(i % 2 ? { coreUrl: second } : {}) },
      );
      expect(answer.code).toBe("unauthorized");
    }
    for (const coreUrl of [stack().coreHttpUrl, second]) {
      const refused = await dashMutation(stack(), "auth.signIn", { email: user.email, password: user.password }, { clientIp: "192.0.2.50", coreUrl });
      expect(refused.status).toBe(429);
      expect(refused.code).toBe("rate_limited");
      expect(refused.issued).toBeUndefined();
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    }
    // An unknown e-mail is limited the same way (nobody learns which e-mails exist from the throttle either).
    const nobody = `nobody-${user.id}@example.com`;
    for (let i = 0; i < 5; i++)
      expect((await dashMutation(stack(), "auth.signIn", { email: nobody, password: "x" }, { clientIp: `192.0.2.${60 + i}` })).code).toBe("unauthorized");
    expect((await dashMutation(stack(), "auth.signIn", { email: nobody, password: "x" }, { clientIp: "192.0.2.70", coreUrl: second })).code).toBe(
      "rate_limited",
    );
  });

  test("successful sign-ins use none of the limit", async () => {
    const user = await seedUser(stack(), m.merchantId, "viewer");
    for (let i = 0; i < 8; i++)
      expect(remember(await signedIn(stack(), user, { clientIp: "192.0.2.80", ...(i % 2 ? { coreUrl: second } : {}) }))).toBeDefined();
  });

  test("the 21st failure from one client IP in the window is refused, whatever the account", async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => seedUser(stack(), m.merchantId, "viewer")));
    for (let i = 0; i < 20; i++) {
      const answer = await dashMutation(
        stack(),
        "auth.signIn",
        { email: users[i % 5]!.email, password: "wrong password!" },
        { clientIp: "198.51.100.99", ...(i % 2 ? { coreUrl: second } : {}) },
      );
      expect(answer.code).toBe("unauthorized");
    }
    const fresh = await seedUser(stack(), m.merchantId, "viewer");
    expect((await dashMutation(stack(), "auth.signIn", { email: fresh.email, password: fresh.password }, { clientIp: "198.51.100.99" })).code).toBe(
      "rate_limited",
    );
    // Another address is not affected.
    expect(remember(await signedIn(stack(), fresh, { clientIp: "198.51.100.100" }))).toBeDefined();
  });
});

describe("invites (paytami users invite / the Team page) and password resets", () => {
  test("an invite URL lets a new user choose a password (12 characters at least) and lands them signed in, once", async () => {
    const email = `Nueva-${Date.now()}@Example.com`;
    const invited = await stack().core.admin.inviteUser({ merchant_id: m.merchantId, email, role: "developer" });
    expect(invited).toMatchObject({ email: email.toLowerCase(), merchant_id: m.merchantId, role: "developer" });
    expect(invited.invite_url).toMatch(new RegExp(`^${stack().publicBaseUrl}/dashboard/invite/[A-Za-z0-9_-]{43}$`));
    const token = tokenOf(invited.invite_url);
    remember(token);
    const info = await dashQuery(stack(), "auth.inviteInfo", { token });
    expect(info.data).toEqual({ email: email.toLowerCase(), merchant_name: "Tienda Panel", role: "developer", choose_password: true });
    // Too short: refused, and the invite still works.
    const short = await dashMutation(stack(), "auth.acceptInvite", { token, password: "elevenchars" });
    expect(short.code).toBe("validation_error");
    expect(short.message).toContain("at least 12");
    const accepted = await dashMutation(stack(), "auth.acceptInvite", { token, password: "una contraseña larga" });
    expect(accepted.status).toBe(200);
    remember(accepted.issued);
    expect(accepted.data).toMatchObject({ user: { email: email.toLowerCase() }, merchant_id: m.merchantId, role: "developer" });
    expect((await dashQuery(stack(), "auth.me", undefined, { session: accepted.issued })).data.role).toBe("developer");
    // One use.
    expect((await dashMutation(stack(), "auth.acceptInvite", { token, password: "otra contraseña larga" })).code).toBe("unauthorized");
    expect((await dashQuery(stack(), "auth.inviteInfo", { token })).code).toBe("unauthorized");
    // The password chosen is the one that signs in.
    expect(remember(await signedIn(stack(), { email, password: "una contraseña larga" }))).toBeDefined();
    // The token is stored as its digest only.
    expect(await stack().sql("select 1 from dashboard_user_tokens where digest = $1", [token])).toEqual([]);
  });

  test("someone already on Paytami confirms their own password to join another merchant, and switches between them", async () => {
    const other = await stack().admin.createMerchant({ name: "Otra Tienda" });
    const user = await seedUser(stack(), m.merchantId, "admin");
    const invited = await stack().core.admin.inviteUser({ merchant_id: other.merchantId, email: user.email, role: "viewer" });
    const token = tokenOf(invited.invite_url);
    expect((await dashQuery(stack(), "auth.inviteInfo", { token })).data.choose_password).toBe(false);
    // Their password is not replaced by whoever holds the URL.
    expect((await dashMutation(stack(), "auth.acceptInvite", { token, password: "someone else's password" })).code).toBe("unauthorized");
    const accepted = await dashMutation(stack(), "auth.acceptInvite", { token, password: user.password });
    remember(accepted.issued);
    expect(accepted.data.merchant_id).toBe(other.merchantId);
    expect(accepted.data.role).toBe("viewer");
    expect(accepted.data.memberships.map((x: { merchant_id: string }) => x.merchant_id).sort()).toEqual([m.merchantId, other.merchantId].sort());
    const switched = await dashMutation(stack(), "auth.switchMerchant", { merchant_id: m.merchantId }, { session: accepted.issued });
    expect(switched.data).toMatchObject({ merchant_id: m.merchantId, role: "admin" });
    // A merchant they are not a member of is refused, and the session stays where it was.
    const stranger = await stack().admin.createMerchant({ name: "Ajena" });
    expect((await dashMutation(stack(), "auth.switchMerchant", { merchant_id: stranger.merchantId }, { session: accepted.issued })).code).toBe(
      "validation_error",
    );
    expect((await dashQuery(stack(), "auth.me", undefined, { session: accepted.issued })).data.merchant_id).toBe(m.merchantId);
    // The mode is remembered per user for the next sign-in.
    expect((await dashMutation(stack(), "auth.switchMode", { mode: "live" }, { session: accepted.issued })).data.mode).toBe("live");
    const again = await dashMutation(stack(), "auth.signIn", { email: user.email, password: user.password });
    remember(again.issued);
    expect(again.data).toMatchObject({ merchant_id: m.merchantId, mode: "live" });
  });

  test("a password reset sets the new password and ends every other session; its URL works once", async () => {
    const user = await seedUser(stack(), m.merchantId, "viewer");
    const first = remember(await signedIn(stack(), user))!;
    const second = remember(await signedIn(stack(), user))!;
    const { user_id, reset_url } = await stack().core.admin.resetUserPassword({ email: user.email.toUpperCase() });
    expect(user_id).toBe(user.id);
    expect(reset_url).toMatch(new RegExp(`^${stack().publicBaseUrl}/dashboard/reset/[A-Za-z0-9_-]{43}$`));
    const token = tokenOf(reset_url);
    remember(token);
    const reset = await dashMutation(stack(), "auth.resetPassword", { token, password: "a brand new passphrase" });
    expect(reset.status).toBe(200);
    remember(reset.issued);
    for (const old of [first, second]) expect((await dashQuery(stack(), "auth.me", undefined, { session: old })).code).toBe("unauthorized");
    expect((await dashQuery(stack(), "auth.me", undefined, { session: reset.issued })).status).toBe(200);
    expect((await dashMutation(stack(), "auth.signIn", { email: user.email, password: user.password })).code).toBe("unauthorized");
    expect(remember(await signedIn(stack(), { email: user.email, password: "a brand new passphrase" }))).toBeDefined();
    expect((await dashMutation(stack(), "auth.resetPassword", { token, password: "yet another passphrase" })).code).toBe("unauthorized");
  });

  test("an unknown e-mail gets no reset URL", async () => {
    await expect(stack().core.admin.resetUserPassword({ email: "nadie@example.com" })).rejects.toMatchObject({ code: "validation_error" });
  });
});

describe("the Security page", () => {
  test("TOTP: started, enabled with a code from the app, then required at sign-in, then turned off with a code", async () => {
    const user = await seedUser(stack(), m.merchantId, "viewer");
    const session = remember(await signedIn(stack(), user))!;
    const started = await dashMutation(stack(), "security.totpStart", undefined, { session });
    const secret: string = started.data.secret;
    expect(started.data.otpauth_url).toContain(`secret=${secret}`);
    expect((await dashMutation(stack(), "security.totpEnable", { code: "000000" }, { session })).code).toBe("validation_error");
    expect((await dashQuery(stack(), "auth.me", undefined, { session })).data.user.totp_enabled).toBe(false);
    // Each code is good once (RFC 6238 §5.2), so each step below uses a later step's code: the one
    // before now, now's, the one after (a step either way is accepted).
    const code = (stepsFromNow: number) => totpCode(secret, new Date(Date.now() + stepsFromNow * 30_000));
    expect((await dashMutation(stack(), "security.totpEnable", { code: code(-1) }, { session })).status).toBe(200);
    expect((await dashQuery(stack(), "auth.me", undefined, { session })).data.user.totp_enabled).toBe(true);
    const withoutCode = await dashMutation(stack(), "auth.signIn", { email: user.email, password: user.password });
    expect(withoutCode.code).toBe("unauthorized");
    expect(withoutCode.issued).toBeUndefined();
    expect((await dashMutation(stack(), "auth.signIn", { email: user.email, password: user.password, totp: "123456" })).issued).toBeUndefined();
    const nowCode = code(0);
    const withCode = await dashMutation(stack(), "auth.signIn", { email: user.email, password: user.password, totp: nowCode });
    expect(remember(withCode.issued)).toBeDefined();
    // The same code again is spent.
    expect((await dashMutation(stack(), "auth.signIn", { email: user.email, password: user.password, totp: nowCode })).code).toBe("unauthorized");
    expect((await dashMutation(stack(), "security.totpDisable", { code: "111111" }, { session })).code).toBe("validation_error");
    expect((await dashMutation(stack(), "security.totpDisable", { code: code(1) }, { session })).status).toBe(200);
    expect(remember(await signedIn(stack(), user))).toBeDefined();
  });

  test("the user's sessions, and signing out everywhere ends them all", async () => {
    const user = await seedUser(stack(), m.merchantId, "viewer");
    const one = remember(await signedIn(stack(), user, { userAgent: "Chromium/141" }))!;
    const two = remember(await signedIn(stack(), user, { userAgent: "Firefox/140" }))!;
    const listed = await dashQuery(stack(), "security.sessions", undefined, { session: two });
    expect(listed.data.data.map((s: { user_agent: string; current: boolean }) => [s.user_agent, s.current])).toEqual([
      ["Firefox/140", true],
      ["Chromium/141", false],
    ]);
    const out = await dashMutation(stack(), "security.signOutEverywhere", undefined, { session: two });
    expect(out.data).toEqual({ ended: 2 });
    expect(out.cleared).toBe(true);
    for (const session of [one, two]) expect((await dashQuery(stack(), "auth.me", undefined, { session })).code).toBe("unauthorized");
  });

  test("the audit log: sign-ins and session mutations, for owners and admins only", async () => {
    const owner = await seedUser(stack(), m.merchantId, "owner");
    const viewer = await seedUser(stack(), m.merchantId, "viewer");
    const session = remember(await signedIn(stack(), owner, { clientIp: "203.0.113.77" }))!;
    await dashMutation(stack(), "auth.switchMode", { mode: "test" }, { session, clientIp: "203.0.113.77" });
    const log = await dashQuery(stack(), "security.auditLog", { limit: 2 }, { session });
    expect(log.data.has_more).toBe(true);
    expect(log.data.data.map((e: { action: string; user_email: string; client_ip: string }) => [e.action, e.user_email, e.client_ip])).toEqual([
      ["switch_mode", owner.email, "203.0.113.77"],
      ["sign_in", owner.email, "203.0.113.77"],
    ]);
    const next = await dashQuery(stack(), "security.auditLog", { limit: 2, starting_after: log.data.data[1].id }, { session });
    expect(Number(next.data.data[0].id)).toBeLessThan(Number(log.data.data[1].id));
    const viewerSession = remember(await signedIn(stack(), viewer))!;
    expect((await dashQuery(stack(), "security.auditLog", undefined, { session: viewerSession })).code).toBe("unauthorized");
  });
});

describe("npm start's sandbox owner", () => {
  test("is invited and given a generated password through the real doors, kept while it still signs in, replaced when not", async () => {
    const merchant = await stack().admin.createMerchant({ name: "Sandbox Merchant" });
    const door = { coreHttp: stack().coreHttpUrl, facadeToken: stack().facadeToken };
    const first = await seedDashboardOwner(stack().core, door, merchant.merchantId, null, false);
    expect(first).toMatchObject({ email: SANDBOX_OWNER_EMAIL, reused: false });
    expect(first.password.length).toBeGreaterThanOrEqual(12);
    const signIn = await dashMutation(stack(), "auth.signIn", { email: first.email, password: first.password });
    remember(signIn.issued);
    expect(signIn.data).toMatchObject({ merchant_id: merchant.merchantId, role: "owner" });
    const previous = { dashboard_email: first.email, dashboard_password: first.password };
    expect(await seedDashboardOwner(stack().core, door, merchant.merchantId, previous, true)).toEqual({ ...first, reused: true });
    // A new merchant (the old one's key stopped working): the same owner joins it with a new password.
    const next = await stack().admin.createMerchant({ name: "Sandbox Merchant" });
    const replaced = await seedDashboardOwner(stack().core, door, next.merchantId, previous, false);
    expect(replaced.password).not.toBe(first.password);
    const again = await dashMutation(stack(), "auth.signIn", { email: replaced.email, password: replaced.password });
    remember(again.issued);
    expect(again.data.memberships.map((x: { merchant_id: string }) => x.merchant_id).sort()).toEqual([merchant.merchantId, next.merchantId].sort());
  });
});

describe("secrets in logs", () => {
  test("no session, invite or reset token any test saw appears in a process's log", () => {
    expect(issuedTokens.length).toBeGreaterThan(10);
    // Every process's log, the second core's included.
    const dir = stack().logDir;
    const logs = fs
      .readdirSync(dir)
      .map((file) => fs.readFileSync(path.join(dir, file), "utf8"))
      .join("\n");
    expect(logs.length).toBeGreaterThan(0);
    for (const token of issuedTokens) expect(logs).not.toContain(token);
  });
});
