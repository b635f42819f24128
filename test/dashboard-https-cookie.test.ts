// The session cookie when PUBLIC_BASE_URL is https (DESIGN §5): `__Host-paytami_session`, HttpOnly,
// SameSite=Lax, Secure, Path=/ — set by a sign-in through the facade, read back by both of the
// facade's doors to the core (the tRPC forwarder and the CSV export), cleared by a sign-out; the
// unprefixed name opens nothing there. The facade listens on plain loopback as behind a TLS proxy.
import { beforeAll, describe, expect, test } from "vitest";
import { seedUser } from "./support/dashboard.ts";
import { useStack } from "./support/expect.ts";

const PUBLIC = "https://pay.example.test";
const stack = useStack({ publicBaseUrl: PUBLIC });
let user: { email: string; password: string };

beforeAll(async () => {
  const m = await stack().admin.createMerchant({ name: "Tienda Segura" });
  user = await seedUser(stack(), m.merchantId, "viewer");
});

const mutation = (procedure: string, input: unknown, cookie?: string) =>
  stack().http.request("POST", `/dashboard/trpc/dashboard.${procedure}`, {
    headers: { "content-type": "application/json", origin: PUBLIC, ...(cookie ? { cookie } : {}) },
    body: Buffer.from(JSON.stringify(input ?? {})),
  });
const me = (cookie: string) => stack().http.get("/dashboard/trpc/dashboard.auth.me", { headers: { cookie } });
const csv = (cookie: string) => stack().http.get("/dashboard/export/payments.csv", { headers: { cookie } });

describe("PUBLIC_BASE_URL https", () => {
  test("sign-in sets __Host-paytami_session with Secure; both doors read it and nothing else; sign-out clears it", async () => {
    const signIn = await mutation("auth.signIn", { email: user.email, password: user.password });
    expect(signIn.status, signIn.text).toBe(200);
    const setCookie = signIn.header("set-cookie")!;
    const match = /^__Host-paytami_session=([A-Za-z0-9_-]{43}); Path=\/; Max-Age=(\d+); HttpOnly; SameSite=Lax; Secure$/.exec(setCookie);
    expect(match, setCookie).not.toBeNull();
    expect(Number(match![2])).toBeGreaterThan(0);
    const token = match![1]!;
    expect(signIn.text).not.toContain(token);
    expect(signIn.header("x-paytami-session-set")).toBeUndefined();

    const good = `__Host-paytami_session=${token}`;
    expect((await me(good)).json.result.data.user.email).toBe(user.email);
    const download = await csv(good);
    expect(download.status, download.text).toBe(200);
    expect(download.header("content-type")).toBe("text/csv; charset=utf-8");
    // The unprefixed name (which a page on another subdomain could set) is no session here, on either door.
    for (const res of [await me(`paytami_session=${token}`), await csv(`paytami_session=${token}`)]) expect(res.status).toBe(401);

    const signOut = await mutation("auth.signOut", {}, good);
    expect(signOut.status, signOut.text).toBe(200);
    expect(signOut.header("set-cookie")).toBe("__Host-paytami_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure");
    // The ended session's cookie is cleared by the export too.
    const ended = await csv(good);
    expect(ended.status).toBe(401);
    expect(ended.header("set-cookie")).toBe("__Host-paytami_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure");
  });
});
