// Replaying the app's own tRPC requests (issue 16): a request the page makes to
// `dashboard.<procedure>` is held at the browser exactly as the app sent it and, while it waits,
// replayed THROUGH THE FACADE with the session of each role that may not make it, with a foreign
// Origin, without Origin and as text/plain. Each replay must be refused and change nothing; then the
// held request goes on and must change something, so the refusals were the rule, not a request that
// could not have worked anyway. Every dashboard page with a mutation uses this.
import type { Page, Request } from "playwright-core";
import { expect } from "vitest";
import type { MerchantRole } from "../../core/src/domain/caller.ts";
import { SESSION_COOKIE } from "./dashboard-browser.ts";
import { databaseSnapshot } from "./db-snapshot.ts";
import type { Stack } from "./stack.ts";

export const ROLES: readonly MerchantRole[] = ["viewer", "developer", "admin", "owner"];

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

/** The database but for sessions' last-seen times, which any request of a session may move. */
export async function snapshotButSessions(stack: Stack): Promise<Record<string, string>> {
  const { dashboard_sessions: _moving, ...rest } = await databaseSnapshot(stack);
  const sessions = await stack.sql("select id, user_id, merchant_id, mode from dashboard_sessions order by id");
  return { ...rest, dashboard_sessions: JSON.stringify(sessions) };
}

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

/**
 * Holds the next request the page makes to `dashboard.<procedure>` (a tRPC POST as httpBatchLink
 * sends it) until `release` is called; `sent` is that request as the browser sent it.
 */
async function hold(page: Page, procedure: string): Promise<{ sent: Promise<Sent>; release: () => void; answered: Promise<number> }> {
  const path = `/dashboard/trpc/dashboard.${procedure}`;
  let gate!: () => void;
  const opened = new Promise<void>((resolve) => (gate = resolve));
  let got!: (sent: Sent) => void;
  const sent = new Promise<Sent>((resolve) => (got = resolve));
  const answered = page
    .waitForResponse((res) => new URL(res.url()).pathname === path && res.request().method() === "POST", { timeout: 120_000 })
    .then((res) => res.status());
  await page.route(
    (u) => u.pathname === path,
    async (route) => {
      const request: Request = route.request();
      got({ url: request.url(), method: request.method(), headers: await request.allHeaders(), body: request.postData() });
      await opened;
      await route.continue();
    },
    { times: 1 },
  );
  return { sent, release: () => gate(), answered };
}

/** Headers a replay must not copy: the transport's own, and the cookie (each replay sets its own). */
const NOT_COPIED = new Set(["cookie", "host", "content-length", "connection", "accept-encoding"]);

/** `sent` again, through the facade, with `change` applied (a header set to undefined is left out). */
async function replay(stack: Stack, sent: Sent, change: { cookie: string; headers?: Record<string, string | undefined> }) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent.headers)) if (!NOT_COPIED.has(name) && !name.startsWith(":")) headers[name] = value;
  headers.cookie = `${SESSION_COOKIE}=${change.cookie}`;
  for (const [name, value] of Object.entries(change.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  const target = new URL(sent.url);
  const res = await stack.http.request(sent.method, `${target.pathname}${target.search}`, {
    headers,
    ...(sent.body !== null ? { body: Buffer.from(sent.body) } : {}),
  });
  const error = Array.isArray(res.json) ? res.json[0]?.error : res.json?.error;
  return { status: res.status, error, text: res.text };
}

/**
 * While the app's request for `procedure` is held: replays it with each role below `least` (none
 * for a mutation every member may make; `sessions` holds one session token per role of the page's
 * merchant) and as a cross-site or non-JSON request with the page's own session; each refused,
 * nothing changed. Then the app's request goes on and succeeds and changes the database.
 */
export async function refusedThenMade(
  stack: Stack,
  sessions: Record<MerchantRole, string>,
  page: Page,
  procedure: string,
  least: MerchantRole | null,
  act: () => Promise<unknown>,
): Promise<void> {
  const { sent, release, answered } = await hold(page, procedure);
  await act();
  const request = await sent;
  expect(request.method).toBe("POST");
  expect(request.headers["content-type"]).toMatch(/^application\/json/);
  expect(request.headers.origin).toBe(stack.publicBaseUrl);
  const ownCookie = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)!.value;
  const before = await snapshotButSessions(stack);
  try {
    for (const role of least ? ROLES.slice(0, ROLES.indexOf(least)) : []) {
      const answer = await replay(stack, request, { cookie: sessions[role] });
      expect({ role, status: answer.status, code: answer.error?.data?.paytami_code }, answer.text).toEqual({ role, status: 401, code: "unauthorized" });
      expect(answer.error.message).toContain(`needs the ${least} role`);
    }
    for (const [why, headers] of [
      ["foreign Origin", { origin: "https://evil.example" }],
      ["no Origin", { origin: undefined }],
      ["text/plain", { "content-type": "text/plain" }],
      ["text/plain from a foreign site", { "content-type": "text/plain;charset=UTF-8", origin: "https://evil.example", "sec-fetch-site": "cross-site" }],
    ] as const) {
      const answer = await replay(stack, request, { cookie: ownCookie, headers });
      expect({ why, status: answer.status }, answer.text).toEqual({ why, status: 403 });
      expect(answer.error.data).toMatchObject({ code: "FORBIDDEN", httpStatus: 403, paytami_code: "unauthorized" });
    }
    expect(await snapshotButSessions(stack)).toEqual(before);
  } finally {
    release();
  }
  expect(await answered).toBe(200);
  // The request the replays copied does change something: what was refused would have.
  await poll(async () => JSON.stringify(await snapshotButSessions(stack)) !== JSON.stringify(before)).toBe(true);
}
