// The core's dashboard procedures as the facade calls them (dashboard contract): the facade's token,
// the browser's session token, address and User-Agent as headers, over plain HTTP so a test sees the
// X-Paytami-Session-* response headers the facade turns into its cookie.
import { randomBytes } from "node:crypto";
import { hashPassword } from "../../core/src/domain/dashboard/passwords.ts";
import type { MerchantRole } from "../../core/src/domain/caller.ts";
import type { Stack } from "./stack.ts";

export interface DashboardAnswer<T = any> {
  status: number;
  /** The procedure's result, when it succeeded. */
  data: T;
  /** The catalog code, when it failed. */
  code: string | undefined;
  message: string | undefined;
  /** X-Paytami-Session-Set's token, when the core issued a session. */
  issued: string | undefined;
  maxAge: number | undefined;
  cleared: boolean;
  headers: Headers;
}

export interface Browser {
  /** The session token the facade would send from the cookie. */
  session?: string | undefined;
  clientIp?: string;
  userAgent?: string;
  /** Another core of the stack (its HTTP URL). */
  coreUrl?: string;
  /** Another credential than the facade's. */
  bearer?: string;
}

/** Calls `dashboard.<path>` as a query (GET) or mutation (POST). */
export async function dashboardCall<T = any>(
  stack: Stack,
  kind: "query" | "mutation",
  path: string,
  input: unknown,
  browser: Browser = {},
): Promise<DashboardAnswer<T>> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${browser.bearer ?? stack.facadeToken}`,
    "user-agent": browser.userAgent ?? "dashboard-test",
    "x-paytami-client-ip": browser.clientIp ?? "203.0.113.10",
  };
  if (browser.session) headers["x-paytami-session"] = browser.session;
  const base = `${browser.coreUrl ?? stack.coreHttpUrl}/trpc/dashboard.${path}`;
  const res =
    kind === "query"
      ? await fetch(input === undefined ? base : `${base}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers })
      : await fetch(base, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(input ?? {}) });
  const json = (await res.json()) as { result?: { data: T }; error?: { message: string; data: { paytami_code: string } } };
  const set = res.headers.get("x-paytami-session-set");
  const match = set ? /^([^;]+); max-age=(\d+)$/.exec(set) : null;
  return {
    status: res.status,
    data: json.result?.data as T,
    code: json.error?.data.paytami_code,
    message: json.error?.message,
    issued: match?.[1],
    maxAge: match ? Number(match[2]) : undefined,
    cleared: res.headers.get("x-paytami-session-clear") === "1",
    headers: res.headers,
  };
}

export const dashQuery = <T = any>(stack: Stack, path: string, input: unknown, browser?: Browser) => dashboardCall<T>(stack, "query", path, input, browser);
export const dashMutation = <T = any>(stack: Stack, path: string, input: unknown, browser?: Browser) =>
  dashboardCall<T>(stack, "mutation", path, input, browser);

/** A user with a password and one membership, written straight to the stack's database (as `users invite` + accepting would leave them). */
export async function seedUser(
  stack: Stack,
  merchantId: string,
  role: MerchantRole,
  password = "correct horse battery",
): Promise<{ id: string; email: string; password: string }> {
  const id = `usr_${randomBytes(12).toString("hex")}`;
  const email = `${role}-${randomBytes(4).toString("hex")}@example.com`;
  await stack.sql("insert into dashboard_users (id, email, password_hash, created_at) values ($1, $2, $3, now())", [id, email, await hashPassword(password)]);
  await stack.sql("insert into memberships (user_id, merchant_id, role, created_at) values ($1, $2, $3, now())", [id, merchantId, role]);
  return { id, email, password };
}

/** Signs `user` in; the session token the facade would keep in its cookie. */
export async function signedIn(stack: Stack, user: { email: string; password: string }, browser: Browser = {}): Promise<string> {
  const answer = await dashMutation(stack, "auth.signIn", { email: user.email, password: user.password }, browser);
  if (!answer.issued) throw new Error(`sign-in failed: ${answer.status} ${answer.code} ${answer.message}`);
  return answer.issued;
}
