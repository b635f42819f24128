// Dashboard identity across processes (DESIGN §5, dashboard contract): the core's dashboard
// procedures called as the facade calls them — its own credential, the browser's session token,
// address and User-Agent — against real cores and PostgreSQL.
import { beforeAll, describe, expect, test } from "vitest";
import { useStack } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";
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
