// Roles and CSRF hold for the requests the app really sends (issue 16): an owner makes every
// mutation the pages offer in real Chromium; each tRPC request is held at the browser exactly as the
// app sent it (URL, method, headers, body) and, while it waits, replayed THROUGH THE FACADE with the
// session of each role that may not make it, with a foreign Origin, without Origin and as
// text/plain. Each replay is refused (its status and tRPC error) and the database is unchanged;
// then the held request goes on and does change it, so the refusals were the rule, not a request
// that could not have worked anyway.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import type { MerchantRole } from "../core/src/domain/caller.ts";
import { useBrowser } from "./support/browser.ts";
import { dashMutation, dashQuery, seedUser, signedIn } from "./support/dashboard.ts";
import { dashboardUrl, signedInPage } from "./support/dashboard-browser.ts";
import { refusedThenMade as refusedThenMade_, ROLES } from "./support/dashboard-replay.ts";
import { createOk, driveToState, useStack } from "./support/expect.ts";
import { newIdemKey } from "./support/http.ts";
import type { Merchant } from "./support/stack.ts";

const stack = useStack();
const browser = useBrowser();
let m: Merchant;
let owner: { id: string; email: string; password: string };
const session = {} as Record<MerchantRole, string>;
let captured: string;
let pending: string;

const url = (p: string) => dashboardUrl(stack(), p);
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

beforeAll(async () => {
  const s = stack();
  m = await s.admin.createMerchant({ name: "Tienda Repetida" });
  owner = await seedUser(s, m.merchantId, "owner");
  for (const role of ROLES) session[role] = await signedIn(s, await seedUser(s, m.merchantId, role));
  const paid = await createOk(s.http, m.testApiKey, { amount: "20000" });
  await driveToState(s, paid.id, "captured");
  captured = paid.id;
  pending = (await createOk(s.http, m.testApiKey, { amount: "15000" })).id;
  // Available GTQ (test mode) for "pay out now".
  const settled = await createOk(s.http, m.testApiKey, { amount: "50000" });
  await driveToState(s, settled.id, "available_to_merchant");
});

const refusedThenMade = (page: Page, procedure: string, least: MerchantRole | null, act: () => Promise<unknown>) =>
  refusedThenMade_(stack(), session, page, procedure, least, act);

describe("every mutation the pages offer, replayed as the app sent it", () => {
  test("payments, links, balances and payouts, team, security and the mode switch", async () => {
    const { page, close } = await signedInPage(stack(), browser(), owner, { locale: "en-US" });
    page.on("dialog", (dialog) => void dialog.accept());
    const mainReady = async () => {
      await page.locator("main h1").waitFor();
      await poll(() => page.locator("main .loading").count()).toBe(0);
    };
    const made: string[] = [];
    const step = async (procedure: string, least: MerchantRole | null, act: () => Promise<unknown>, done: () => Promise<unknown>) => {
      await refusedThenMade(page, procedure, least, act);
      await done();
      made.push(procedure);
    };

    await page.goto(url(`/payments/${captured}`));
    await mainReady();
    await step(
      "payments.refund",
      "admin",
      async () => {
        await page.getByLabel("Partial refund").check();
        await page.getByLabel("Amount to refund").fill("50.25");
        await page.getByRole("button", { name: "Refund", exact: true }).click();
      },
      () => page.getByText("Refunded Q 50.25.").waitFor(),
    );
    // One refund only: none of the replays made another.
    expect((await stack().http.get(`/v1/refunds?payment_id=${captured}`, { key: m.testApiKey })).json.data).toHaveLength(1);

    await page.goto(url(`/payments/${pending}`));
    await mainReady();
    await step(
      "payments.cancel",
      "admin",
      async () => {
        await page.getByRole("button", { name: "Cancel the payment" }).click();
        await page.getByRole("button", { name: "Yes, cancel" }).click();
      },
      () => poll(async () => (await stack().http.getPayment(m.testApiKey, pending)).json.status).toBe("canceled"),
    );

    await page.goto(url("/links/new"));
    await mainReady();
    await step(
      "links.create",
      "admin",
      async () => {
        await page.getByLabel("Title").fill("Camisa repetida");
        await page.getByLabel("Amount", { exact: true }).fill("75");
        await page.getByRole("button", { name: "Create link" }).click();
      },
      () => page.waitForURL(/\/dashboard\/links\/link_[0-9a-f]{24}$/),
    );
    expect(await stack().sql("select id from links where merchant_id = $1 and title = 'Camisa repetida'", [m.merchantId])).toHaveLength(1);
    const linkId = page.url().split("/").at(-1)!;
    await mainReady();
    await step(
      "links.deactivate",
      "admin",
      async () => {
        await page.getByRole("button", { name: "Deactivate the link" }).click();
        await page.getByRole("button", { name: "Yes, deactivate" }).click();
      },
      () => poll(async () => (await stack().http.get(`/v1/payment_links/${linkId}`)).json.not_payable_reason).toBe("inactive"),
    );

    await page.goto(url("/balances"));
    await mainReady();
    await step(
      "bankAccounts.add",
      "admin",
      async () => {
        await page.getByLabel("Account number").fill("1234567890");
        await page.getByLabel("Holder").fill("Tienda Repetida S.A.");
        await page.getByRole("button", { name: "Add account" }).click();
      },
      () => page.getByText("Account ****7890 added.").waitFor(),
    );
    await step(
      "payouts.payNow",
      "admin",
      () => page.getByRole("button", { name: "Pay out GTQ now" }).click(),
      () => page.getByText(/^Payout of Q [\d,.]+: /).waitFor(),
    );
    expect(await stack().sql("select id from payouts where merchant_id = $1", [m.merchantId])).toHaveLength(1);

    const colleague = await seedUser(stack(), m.merchantId, "viewer");
    const leaving = await seedUser(stack(), m.merchantId, "viewer");
    await page.goto(url("/team"));
    await page.getByRole("table", { name: "Members" }).waitFor();
    const invite = page.getByRole("region", { name: "Invite someone" });
    await step(
      "team.invite",
      "admin",
      async () => {
        await invite.getByLabel("E-mail").fill("replayed@example.com");
        await invite.getByLabel("Role").selectOption("developer");
        await invite.getByRole("button", { name: "Create invitation" }).click();
      },
      () => invite.getByRole("textbox", { name: "Invitation link" }).waitFor(),
    );
    await step(
      "team.changeRole",
      "admin",
      () => page.getByLabel(`Role of ${colleague.email}`).selectOption("developer"),
      () => poll(async () => (await stack().sql("select role from memberships where user_id = $1", [colleague.id]))[0]?.role).toBe("developer"),
    );
    await step(
      "team.remove",
      "admin",
      () => page.getByRole("button", { name: `Remove ${leaving.email}` }).click(),
      () => poll(async () => (await stack().sql("select role from memberships where user_id = $1", [leaving.id])).length).toBe(0),
    );

    // Every member may make these for themselves: only the CSRF rule stands between a foreign site and them.
    await page.goto(url("/security"));
    await page.getByRole("table", { name: "Your sessions" }).waitFor();
    await step(
      "security.totpStart",
      null,
      () => page.getByRole("button", { name: "Turn on" }).click(),
      () => page.getByRole("img", { name: "QR code for the authenticator app" }).waitFor(),
    );
    const mode = page.getByRole("group", { name: "Mode" });
    await step(
      "auth.switchMode",
      null,
      () => mode.getByRole("button", { name: "Live" }).click(),
      () => poll(() => mode.getByRole("button", { name: "Live" }).getAttribute("aria-pressed")).toBe("true"),
    );
    await page.goto(url("/security"));
    await page.getByRole("table", { name: "Your sessions" }).waitFor();
    await step(
      "security.signOutEverywhere",
      null,
      () => page.getByRole("button", { name: "Sign out everywhere" }).click(),
      () => page.waitForURL(url("/sign-in")),
    );
    expect(await stack().sql("select id from dashboard_sessions where user_id = $1", [owner.id])).toEqual([]);
    expect(made).toHaveLength(12);
    await close();
  }, 240_000);

  test("what those mutations made is out of reach of another merchant's owner and of the other mode, whatever ids are sent", async () => {
    const s = stack();
    const other = await s.admin.createMerchant({ name: "Tienda Ajena" });
    const foreign = await signedIn(s, await seedUser(s, other.merchantId, "owner"));
    const live = await signedIn(s, await seedUser(s, m.merchantId, "admin"));
    expect((await dashMutation(s, "auth.switchMode", { mode: "live" }, { session: live })).status).toBe(200);
    const [payout] = await s.sql<{ id: string }>("select id from payouts where merchant_id = $1", [m.merchantId]);
    const [link] = await s.sql<{ id: string }>("select id from links where merchant_id = $1 and title = 'Camisa repetida'", [m.merchantId]);
    const [refund] = await s.sql<{ id: string }>("select id from refunds where payment_id = $1", [captured]);
    // The test-mode admin reaches them all: the refusals below are about who asks.
    const own = { session: session.admin };
    expect((await dashQuery(s, "payouts.get", { id: payout!.id }, own)).status).toBe(200);
    expect((await dashQuery(s, "links.get", { id: link!.id }, own)).status).toBe(200);
    expect((await dashQuery(s, "payments.get", { id: captured }, own)).data.refunds.map((r: { id: string }) => r.id)).toEqual([refund!.id]);
    for (const [who, asker] of [
      ["another merchant", foreign],
      ["live mode", live],
    ] as const) {
      const as = { session: asker };
      expect((await dashQuery(s, "payouts.get", { id: payout!.id }, as)).code, who).toBe("validation_error");
      expect((await dashQuery(s, "payouts.list", {}, as)).data.data, who).toEqual([]);
      expect((await dashQuery(s, "bankAccounts.list", undefined, as)).data.data, who).toEqual([]);
      expect((await dashQuery(s, "links.get", { id: link!.id }, as)).code, who).toBe("unknown_payment_link");
      expect((await dashQuery(s, "links.payments", { id: link!.id }, as)).code, who).toBe("unknown_payment_link");
      for (const id of [captured, pending]) expect((await dashQuery(s, "payments.get", { id }, as)).code, who).toBe("unknown_payment");
      expect((await dashQuery(s, "payments.list", { search: captured }, as)).data.data, who).toEqual([]);
    }
  });

  test("the refund made in the dashboard wrote the same ledger lines as the same refund made through the API", async () => {
    const s = stack();
    const twin = await createOk(s.http, m.testApiKey, { amount: "20000" });
    await driveToState(s, twin.id, "captured");
    const api = await s.http.post("/v1/refunds", { key: m.testApiKey, idem: newIdemKey(), body: { payment_id: twin.id, amount: "5025" } });
    expect(api.status, api.text).toBe(201);
    const lines = (paymentId: string) =>
      s.sql<{ account: string; amount: string }>(
        `select l.account, l.amount::text as amount from ledger_lines l join ledger_transactions t on t.id = l.transaction_id
         join refunds r on r.id = t.refund_id where r.payment_id = $1 order by l.account, l.amount`,
        [paymentId],
      );
    const dashboard = await lines(captured);
    expect(dashboard.length).toBeGreaterThanOrEqual(2);
    expect(await lines(twin.id)).toEqual(dashboard);
    const [mine] = (await s.http.get(`/v1/refunds?payment_id=${captured}`, { key: m.testApiKey })).json.data;
    const { id: _a, payment_id: _b, created_at: _c, ...rest } = mine;
    const { id: _d, payment_id: _e, created_at: _f, ...restApi } = api.json;
    expect(rest).toEqual({ ...restApi, reason: rest.reason });
  });
});
