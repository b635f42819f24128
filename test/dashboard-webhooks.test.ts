// The dashboard's Webhooks and Events pages (issue 17 items 2 and 3) in real Chromium on the real
// stack (core, facade, dispatcher, NATS, PostgreSQL): an endpoint made in the page at a receiver on
// loopback, its deliveries with every attempt, failures, "replay failed since", signatures checked
// with Stripe's own library, the secret revealed and rotated, the event explorer; every mutation the
// pages send replayed with each lower role and cross-site (refusedThenMade); receivers' answers and
// endpoint URLs stay inert text; every page axe-clean in both languages at 1280 and 360 px.
import type { Page } from "playwright-core";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MerchantRole } from "../core/src/domain/caller.ts";
import { useBrowser } from "./support/browser.ts";
import { dashMutation, dashQuery, seedUser, signedIn } from "./support/dashboard.ts";
import { checkPage, dashboardUrl, LANGUAGES, signedInPage, VIEWPORTS } from "./support/dashboard-browser.ts";
import { refusedThenMade as refusedThenMade_, ROLES, snapshotButSessions } from "./support/dashboard-replay.ts";
import { createOk, driveToState, useStack } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";
import { WebhookReceiver, type ReceivedRequest } from "./support/webhook-receiver.ts";

const stack = useStack({
  dispatcher: true,
  env: { OUTBOX_RELAY_INTERVAL: "50ms", DISPATCHER_POLL_INTERVAL: "100ms", WEBHOOK_RETRY_SCHEDULE: "0,300ms" },
});
const browser = useBrowser();
const stripe = new Stripe("sk_test_x");
const receiver = new WebhookReceiver();
let m: Merchant;
let developer: { id: string; email: string; password: string };
const session = {} as Record<MerchantRole, string>;

const url = (p: string) => dashboardUrl(stack(), p);
const poll = <T>(read: () => Promise<T> | T, timeout = 20_000) => expect.poll(read, { timeout, interval: 100 });

/** What a receiver's 500 says: markup that would run if it were ever put in the page as HTML. */
const HOSTILE = `<img src=x onerror="window.__xss='excerpt'"><script>window.__xss='script'</script> boom`;

beforeAll(async () => {
  const s = stack();
  await receiver.start();
  m = await s.admin.createMerchant({ name: "Tienda Ganchos" });
  developer = await seedUser(s, m.merchantId, "developer");
  for (const role of ROLES) session[role] = await signedIn(s, await seedUser(s, m.merchantId, role));
});

afterAll(() => receiver.stop());

const refusedThenMade = (page: Page, procedure: string, act: () => Promise<unknown>) => refusedThenMade_(stack(), session, page, procedure, "developer", act);

async function ready(page: Page): Promise<void> {
  await page.locator("main h1").waitFor();
  await poll(() => page.locator("main .loading").count()).toBe(0);
}

/** A captured payment of the merchant: its payment.succeeded event's id. */
async function paymentEvent(): Promise<string> {
  const s = stack();
  const payment = await createOk(s.http, m.testApiKey, { amount: "12500" });
  await driveToState(s, payment.id, "captured");
  let id: string | undefined;
  await poll(async () => {
    const rows = await s.sql<{ id: string }>("select id from outbox_events where merchant_id = $1 and envelope::jsonb -> 'data' ->> 'id' = $2", [
      m.merchantId,
      payment.id,
    ]);
    id = rows[0]?.id;
    return id !== undefined;
  }).toBe(true);
  return id!;
}

/**
 * Nothing moves in the background: every event relayed, `deliveries` deliveries recorded for the
 * merchant and none of them pending (so a database snapshot holds still while requests are replayed).
 */
async function quiet(deliveries: number): Promise<void> {
  const s = stack();
  await poll(async () => {
    const [row] = await s.sql<{ unpublished: number; total: number; pending: number }>(
      `select (select count(*)::int from outbox_events e join outbox_pending p on p.seq = e.seq where e.merchant_id = $1) as unpublished,
              (select count(*)::int from webhook_deliveries where merchant_id = $1) as total,
              (select count(*)::int from webhook_deliveries where merchant_id = $1 and status = 'pending') as pending`,
      [m.merchantId],
    );
    return row;
  }).toEqual({ unpublished: 0, total: deliveries, pending: 0 });
}

const statuses = async (endpoint: string) =>
  (await stack().sql<{ status: string }>("select status from webhook_deliveries where endpoint_id = $1 order by created_at, id", [endpoint])).map(
    (r) => r.status,
  );

/** Each request's signature verifies with Stripe's library and one of `secrets` (Paytami signs as Stripe does: t=,v1=). */
function verifiesWith(requests: readonly ReceivedRequest[], secrets: readonly string[]): void {
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) {
    const header = String(request.headers["service-signature"]);
    const passed = secrets.filter((secret) => {
      try {
        return stripe.webhooks.constructEvent(request.body, header, secret).id === request.eventId;
      } catch {
        return false;
      }
    });
    expect(passed, `${request.n}: ${header}`).toEqual(secrets);
  }
}

describe("Webhooks", () => {
  let endpoint: string;
  let secret: string;

  test("an endpoint made in the page gets each event; failures show with every attempt; 'replay failed since' sends them again; every signature verifies with Stripe's library", async () => {
    const s = stack();
    const { page, close } = await signedInPage(s, browser(), developer, { locale: "en-US" });
    await page.goto(url("/"));
    await page.getByRole("navigation").getByRole("link", { name: "Webhooks" }).click();
    await ready(page);
    expect(await page.locator("main h1").innerText()).toBe("Webhooks");

    await refusedThenMade(page, "webhooks.create", async () => {
      await page.getByLabel("Endpoint URL").fill(receiver.url);
      await page.getByRole("button", { name: "Add endpoint" }).click();
    });
    secret = await page.getByTestId("new-endpoint-secret").innerText();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const [row] = await s.sql<{ id: string; enabled_events: string[]; secret: string }>(
      "select id, enabled_events, secret from webhook_endpoints where merchant_id = $1",
      [m.merchantId],
    );
    expect(row).toMatchObject({ enabled_events: [], secret });
    endpoint = row!.id;
    await page
      .getByRole("table", { name: /Webhook endpoints/ })
      .getByRole("link", { name: receiver.url })
      .click();
    await ready(page);
    expect(await page.getByTestId("endpoint-url").innerText()).toBe(receiver.url);

    // A test event of a chosen type, sent from the page: a real, signed delivery with its attempt.
    await page.getByRole("region", { name: "Send a test event" }).getByLabel("Event type").selectOption("refund.succeeded");
    await refusedThenMade(page, "webhooks.sendTest", () => page.getByRole("button", { name: "Send test event" }).click());
    const sent = (await page.getByText(/^Test event evt_\w+ sent/).innerText()).split(" ")[2]!;
    await quiet(1);
    const tested = page.locator(`[data-testid=delivery]`, { hasText: sent });
    await poll(() => tested.getByTestId("attempt-status").allInnerTexts()).toEqual(["200"]);
    expect(await tested.getByTestId("attempt-latency").innerText()).toMatch(/^\d+ ms$/);
    const testBody = JSON.parse(receiver.requests.find((r) => r.eventId === sent)!.body.toString());
    expect(testBody).toMatchObject({ id: sent, type: "refund.succeeded", test_event: true, livemode: false });

    // An event made through the API: delivered, one attempt answered 200, with its latency.
    const ok = await paymentEvent();
    await quiet(2);
    const first = page.locator(`[data-testid=delivery]`, { hasText: ok });
    await poll(() => first.getByTestId("attempt-status").allInnerTexts()).toEqual(["200"]);
    expect(await first.getByTestId("attempt-latency").innerText()).toMatch(/^\d+ ms$/);
    await expect.poll(() => first.getByText("Delivered").count()).toBe(1);

    // The receiver fails: both attempts of two new events are recorded, with its answer as text.
    receiver.behaviour = () => ({ status: 500, body: HOSTILE });
    const failing = [await paymentEvent(), await paymentEvent()];
    await quiet(4);
    expect(await statuses(endpoint)).toEqual(["succeeded", "succeeded", "failed", "failed"]);
    await page.getByLabel("Failed only").check();
    await poll(() => page.getByTestId("delivery").count()).toBe(2);
    for (const event of failing) {
      const delivery = page.locator(`[data-testid=delivery]`, { hasText: event });
      await poll(() => delivery.getByTestId("attempt-status").allInnerTexts()).toEqual(["500", "500"]);
      expect(await delivery.getByTestId("attempt-excerpt").allInnerTexts()).toEqual([HOSTILE, HOSTILE]);
      expect(await delivery.getByText("Failed", { exact: true }).count()).toBe(1);
    }
    expect(await page.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();
    expect(await page.locator("main img, main script").count()).toBe(0);
    // The event-type filter, with the failed one and without: the refund test event did not fail.
    const typeFilter = page.getByRole("search", { name: "Filter the deliveries" }).getByLabel("Event type");
    await typeFilter.selectOption("refund.succeeded");
    await poll(() => page.getByTestId("delivery").count()).toBe(0);
    await page.getByLabel("Failed only").uncheck();
    await poll(() => page.getByTestId("delivery").count()).toBe(1);
    await page.getByLabel("Failed only").check();
    await typeFilter.selectOption("payment.succeeded");
    await poll(() => page.getByTestId("delivery").count()).toBe(2);

    // Fixed, then every failed delivery since yesterday is sent again and succeeds.
    receiver.behaviour = () => ({ status: 200, body: "ok" });
    const yesterday = new Date(Date.now() - 86_400_000).toLocaleDateString("en-CA", { timeZone: "America/Guatemala" });
    await page.getByLabel("Failed ones created since (day)").fill(yesterday);
    await refusedThenMade(page, "webhooks.replayFailed", () => page.getByRole("button", { name: "Replay failed deliveries" }).click());
    await page.getByText("2 deliveries scheduled to be sent again.").waitFor();
    await quiet(4);
    expect(await statuses(endpoint)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded"]);
    await poll(() => page.getByTestId("delivery").count()).toBe(0);
    await page.getByLabel("Failed only").uncheck();
    await typeFilter.selectOption("");
    for (const event of failing) {
      const delivery = page.locator(`[data-testid=delivery]`, { hasText: event });
      await poll(() => delivery.getByTestId("attempt-status").allInnerTexts()).toEqual(["500", "500", "200"]);
      await poll(() => delivery.getByText("Delivered").count()).toBe(1);
    }
    // Each event reached the receiver; the replayed ones with the same id and body as their first attempt.
    for (const event of [sent, ok, ...failing]) expect(receiver.requests.some((r) => r.eventId === event)).toBe(true);
    for (const event of failing) expect(new Set(receiver.requests.filter((r) => r.eventId === event).map((r) => r.body.toString())).size).toBe(1);
    verifiesWith(receiver.requests, [secret]);

    // Replay one delivery, whatever its status.
    const before = receiver.requests.length;
    await refusedThenMade(page, "webhooks.replay", () =>
      page
        .locator(`[data-testid=delivery]`, { hasText: ok })
        .getByRole("button", { name: /^Replay delivery dlv_/ })
        .click(),
    );
    await quiet(4);
    await poll(() => receiver.requests.length).toBe(before + 1);
    expect(receiver.requests.at(-1)!.eventId).toBe(ok);
    verifiesWith(receiver.requests.slice(before), [secret]);
    await close();
  }, 240_000);

  test("the secret is shown on demand (audited); rotating it signs with both for 24 h, as the page says; disabling stops deliveries", async () => {
    const s = stack();
    const { page, close } = await signedInPage(s, browser(), developer, { locale: "en-US" });
    await page.goto(url(`/webhooks/${endpoint}`));
    await ready(page);
    await quiet(4);
    await refusedThenMade(page, "webhooks.revealSecret", () => page.getByRole("button", { name: "Reveal the secret" }).click());
    expect(await page.getByTestId("endpoint-secret").innerText()).toBe(secret);
    const [audit] = await s.sql("select action, object_id, mode from audit_log where merchant_id = $1 order by seq desc limit 1", [m.merchantId]);
    expect(audit).toEqual({ action: "reveal_endpoint_secret", object_id: endpoint, mode: "test" });
    await page.getByRole("button", { name: "Hide the secret" }).click();
    expect(await page.getByTestId("endpoint-secret").count()).toBe(0);

    await page.getByRole("button", { name: "Rotate the secret" }).click();
    await page.getByText("For 24 hours Paytami signs with both the new and the previous secret").waitFor();
    await refusedThenMade(page, "webhooks.rotateSecret", () => page.getByRole("button", { name: "Yes, rotate" }).click());
    await page.getByText(/^Secret rotated\. The previous one keeps signing until /).waitFor();
    const rotated = await page.getByTestId("endpoint-secret").innerText();
    expect(rotated).not.toBe(secret);
    const [{ expires }] = (await s.sql("select previous_secret_expires_at as expires from webhook_endpoints where id = $1", [endpoint])) as [{ expires: Date }];
    expect(Math.abs(expires.getTime() - Date.now() - 24 * 3_600_000)).toBeLessThan(60_000);

    // The next delivery carries one v1= per secret: each verifies with Stripe's library.
    const before = receiver.requests.length;
    await paymentEvent();
    await quiet(5);
    verifiesWith(receiver.requests.slice(before), [rotated, secret]);

    // The subscription: one type, then every type again (none checked).
    const subscription = page.getByRole("region", { name: "Events it receives" });
    await subscription.getByLabel("payment.succeeded").check();
    await refusedThenMade(page, "webhooks.update", () => subscription.getByRole("button", { name: "Save events" }).click());
    await subscription.getByText("Events saved.").waitFor();
    expect((await s.sql("select enabled_events from webhook_endpoints where id = $1", [endpoint]))[0]).toEqual({ enabled_events: ["payment.succeeded"] });
    await subscription.getByLabel("payment.succeeded").uncheck();
    await subscription.getByRole("button", { name: "Save events" }).click();
    await poll(async () => (await s.sql("select enabled_events from webhook_endpoints where id = $1", [endpoint]))[0]).toEqual({ enabled_events: [] });

    await refusedThenMade(page, "webhooks.update", () => page.getByRole("button", { name: "Disable", exact: true }).click());
    await page.getByRole("button", { name: "Enable", exact: true }).waitFor();
    expect((await s.sql("select enabled from webhook_endpoints where id = $1", [endpoint]))[0]).toEqual({ enabled: false });
    const unsent = await paymentEvent();
    await quiet(5);
    // Time for the dispatcher to have taken the event (it records deliveries within its poll interval).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await s.sql("select id from webhook_deliveries where event_id = $1", [unsent])).toEqual([]);
    expect(receiver.requests.some((r) => r.eventId === unsent)).toBe(false);
    await page.getByRole("button", { name: "Enable", exact: true }).click();
    await page.getByRole("button", { name: "Disable", exact: true }).waitFor();
    await close();
  }, 180_000);

  test("an endpoint URL and a receiver's answer holding markup stay text; deleting asks first and removes the endpoint", async () => {
    const s = stack();
    const hostileUrl = `${receiver.url}?q=<script>window.__xss='url'</script><img src=x onerror="window.__xss='url-img'">`;
    const made = await dashMutation(s, "webhooks.create", { url: hostileUrl, enabled_events: ["refund.succeeded"] }, { session: session.developer });
    expect(made.status, made.message).toBe(200);
    const id = made.data.endpoint.id as string;
    const { page, close } = await signedInPage(s, browser(), developer, { locale: "es-GT" });
    await page.goto(url("/webhooks"));
    await ready(page);
    await page.getByRole("link", { name: hostileUrl }).waitFor();
    await page.getByRole("link", { name: hostileUrl }).click();
    await ready(page);
    expect(await page.getByTestId("endpoint-url").innerText()).toBe(hostileUrl);
    expect(await page.locator("main").innerText()).toContain("refund.succeeded");
    expect(await page.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();
    expect(await page.locator("main img, main script").count()).toBe(0);

    await quiet(5);
    await page.getByRole("button", { name: "Eliminar el endpoint" }).click();
    await page.getByText("¿Eliminar este endpoint?").waitFor();
    await refusedThenMade(page, "webhooks.delete", () => page.getByRole("button", { name: "Sí, eliminar" }).click());
    await page.waitForURL(url("/webhooks"));
    expect(await s.sql("select id from webhook_endpoints where id = $1", [id])).toEqual([]);
    await close();
  }, 120_000);
});

describe("isolation", () => {
  test("another merchant's developer, and this merchant's live mode, sending this endpoint's ids, are refused as unknown and change nothing", async () => {
    const s = stack();
    const other = await s.admin.createMerchant({ name: "Tienda Ajena" });
    const foreign = await signedIn(s, await seedUser(s, other.merchantId, "developer"));
    const live = await signedIn(s, await seedUser(s, m.merchantId, "developer"));
    expect((await dashMutation(s, "auth.switchMode", { mode: "live" }, { session: live })).data.mode).toBe("live");
    const [endpoint] = await s.sql<{ id: string }>("select id from webhook_endpoints where merchant_id = $1", [m.merchantId]);
    const [delivery] = await s.sql<{ id: string; event_id: string }>("select id, event_id from webhook_deliveries where endpoint_id = $1 limit 1", [
      endpoint!.id,
    ]);
    await quiet(5);
    const before = await snapshotButSessions(s);
    for (const [who, asker] of [
      ["another merchant", foreign],
      ["live mode", live],
    ] as const) {
      const as = { session: asker };
      for (const [path, input] of [
        ["webhooks.revealSecret", { id: endpoint!.id }],
        ["webhooks.rotateSecret", { id: endpoint!.id }],
        ["webhooks.update", { id: endpoint!.id, enabled: false }],
        ["webhooks.delete", { id: endpoint!.id }],
        ["webhooks.sendTest", { endpoint_id: endpoint!.id, type: "payment.succeeded" }],
        ["webhooks.replay", { endpoint_id: endpoint!.id, id: delivery!.id }],
        ["webhooks.replayFailed", { endpoint_id: endpoint!.id, since: "2020-01-01T00:00:00Z" }],
      ] as const) {
        const answer = await dashMutation(s, path, input, as);
        expect({ who, path, code: answer.code }).toEqual({ who, path, code: "validation_error" });
        expect(answer.message).not.toContain("whsec_");
      }
      expect((await dashQuery(s, "webhooks.list", undefined, as)).data.data, who).toEqual([]);
      expect((await dashQuery(s, "webhooks.get", { id: endpoint!.id }, as)).code, who).toBe("validation_error");
      expect((await dashQuery(s, "webhooks.deliveries", { endpoint_id: endpoint!.id }, as)).code, who).toBe("validation_error");
      expect((await dashQuery(s, "events.get", { id: delivery!.event_id }, as)).data, who).toBeNull();
      expect((await dashQuery(s, "events.deliveries", { id: delivery!.event_id }, as)).data.data, who).toEqual([]);
    }
    expect(await snapshotButSessions(s)).toEqual(before);
  });
});

describe("Events", () => {
  test("an event made through the API is listed (and filtered by type), its JSON shown as text, and the deliveries it made", async () => {
    const s = stack();
    const event = await paymentEvent();
    await quiet(6);
    const { page, close } = await signedInPage(s, browser(), developer, { locale: "en-US" });
    await page.goto(url("/"));
    await page.getByRole("navigation").getByRole("link", { name: "Events" }).click();
    await ready(page);
    const table = page.getByRole("table", { name: "Events, newest first" });
    await table.getByRole("link", { name: event }).waitFor();
    await page.getByLabel("Event type").selectOption("refund.succeeded");
    await poll(() => table.getByRole("link", { name: event }).count()).toBe(0);
    await page.getByLabel("Event type").selectOption("payment.succeeded");
    await table.getByRole("link", { name: event }).click();
    await ready(page);
    const envelope = (await s.http.get(`/v1/events/${event}`, { key: m.testApiKey })).json;
    expect(JSON.parse(await page.getByTestId("event-json").innerText())).toEqual(envelope);
    const delivery = page.getByTestId("delivery");
    await poll(() => delivery.count()).toBe(1);
    expect(await delivery.getByTestId("attempt-status").allInnerTexts()).toEqual(["200"]);
    const [row] = await s.sql<{ id: string }>("select id from webhook_deliveries where event_id = $1", [event]);
    expect(await delivery.getAttribute("data-delivery-id")).toBe(row!.id);
    await close();
  }, 120_000);
});

describe("accessibility", () => {
  test("Webhooks, an endpoint, Events and an event: axe-clean in both languages at 1280 and 360 px, no horizontal scroll", async () => {
    const s = stack();
    const [endpoint] = await s.sql<{ id: string }>("select id from webhook_endpoints where merchant_id = $1", [m.merchantId]);
    const [event] = await s.sql<{ event_id: string }>("select event_id from webhook_deliveries where endpoint_id = $1 limit 1", [endpoint!.id]);
    const routes = [
      ["webhooks", "/webhooks"],
      ["webhook", `/webhooks/${endpoint!.id}`],
      ["events", "/events"],
      ["event", `/events/${event!.event_id}`],
    ] as const;
    for (const { lang, locale } of LANGUAGES) {
      for (const viewport of VIEWPORTS) {
        const { page, csp, close } = await signedInPage(s, browser(), developer, { locale, ...viewport.options });
        for (const [name, route] of routes) {
          await page.goto(url(route));
          await ready(page);
          if (name === "webhook" || name === "event") await page.getByTestId("delivery").first().waitFor();
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
          await checkPage(page, `hooks-${name}-${lang}-${viewport.name}`, viewport.options.viewport.width);
        }
        expect(csp).toEqual([]);
        await close();
      }
    }
  }, 240_000);

  test("a viewer's navigation has neither page", async () => {
    const viewer = await seedUser(stack(), m.merchantId, "viewer");
    const { page, close } = await signedInPage(stack(), browser(), viewer, { locale: "en-US" });
    await page.goto(url("/"));
    await page.getByRole("navigation").getByRole("link", { name: "Payments" }).waitFor();
    expect(await page.getByRole("navigation").getByRole("link", { name: "Webhooks" }).count()).toBe(0);
    expect(await page.getByRole("navigation").getByRole("link", { name: "Events" }).count()).toBe(0);
    await close();
  });
});
