// The dashboard's money pages in real Chromium against a real stack (issue 16 item 3): Home,
// Payments (list, detail, refund, cancel), Payment links (list, create, detail with its QR code)
// and Balances and payouts. What the browser shows is checked against what the REST API, the
// ledger and a real webhook receiver say; stored merchant and customer texts stay text; every page
// in both languages at 1280 px and 360×640 with axe. Screenshots: test-results/screenshots/dashboard-money-*.png.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import jsQR from "jsqr";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../core/src/devstack/services.ts";
import { modeCodec } from "../proto/enums.ts";
import { useBrowser } from "./support/browser.ts";
import { dashMutation, seedUser, signedIn } from "./support/dashboard.ts";
import { appPage, checkPage, dashboardUrl, LANGUAGES, signedInPage, VIEWPORTS } from "./support/dashboard-browser.ts";
import { eventually } from "./support/eventually.ts";
import { createOk, driveToState, payByCard, useStack } from "./support/expect.ts";
import { newIdemKey } from "./support/http.ts";
import { decodeQrSvg } from "./support/qr-decode.ts";
import type { Merchant } from "./support/stack.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

const stack = useStack({
  dispatcher: true,
  env: { OUTBOX_RELAY_INTERVAL: "50ms", DISPATCHER_POLL_INTERVAL: "100ms", WEBHOOK_RETRY_SCHEDULE: "0,300ms,300ms" },
});
const browser = useBrowser();
let m: Merchant;
let owner: { email: string; password: string };
let admin: { email: string; password: string };
let viewer: { email: string; password: string };
const receiver = new WebhookReceiver();

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Paneles" });
  owner = await seedUser(stack(), m.merchantId, "owner");
  admin = await seedUser(stack(), m.merchantId, "admin");
  viewer = await seedUser(stack(), m.merchantId, "viewer");
  await receiver.start();
  await stack().core.webhooks.createEndpoint({
    merchant_id: m.merchantId,
    mode: modeCodec.fromWire("test"),
    url: receiver.url,
    enabled_events: ["refund.succeeded"],
  });
});
afterAll(async () => {
  await receiver.stop();
});

const url = (p: string) => dashboardUrl(stack(), p);
/** expect.poll with room for a page's queries and a core's jobs under load (its default gives up after 1 s). */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

/** A captured card payment made through REST. */
async function capturedPayment(overrides: Record<string, unknown> = {}): Promise<any> {
  const payment = await createOk(stack().http, m.testApiKey, overrides);
  expect(await payByCard(stack(), payment.id)).toBe("captured");
  return payment;
}

/** Waits until the page's data has arrived (no "Loading…" left) and returns the main region's text. */
async function mainText(page: Page): Promise<string> {
  await page.locator("main h1").waitFor();
  await poll(() => page.locator("main .loading").count()).toBe(0);
  return page.locator("main").innerText();
}

describe("home", () => {
  test("balances per currency, the day's volume, recent payments, and a warning while webhook deliveries fail", async () => {
    const shop = await stack().admin.createMerchant({ name: "Tienda Caída" });
    const failing = await new WebhookReceiver(() => ({ status: 500, body: "down" })).start();
    try {
      await stack().core.webhooks.createEndpoint({
        merchant_id: shop.merchantId,
        mode: modeCodec.fromWire("test"),
        url: failing.url,
        enabled_events: ["payment.succeeded"],
      });
      const p = await createOk(stack().http, shop.testApiKey, { amount: "12345", description: "Café de Huehuetenango" });
      expect(await payByCard(stack(), p.id)).toBe("captured");
      await eventually(async () => (failing.requests.length > 0 ? true : undefined), 30_000, "a failed delivery attempt");
      const user = await seedUser(stack(), shop.merchantId, "viewer");
      const { page, close } = await signedInPage(stack(), browser(), user, { locale: "en-US" });
      await page.goto(url("/"));
      const text = await mainText(page);
      await poll(async () => (await page.reload(), await mainText(page))).toContain("webhook delivery is failing");
      // Q 123.45 by card less its fee (3.50 % → Q 4.32, + Q 2.00) waits in pending until settlement.
      expect(await page.getByTestId("home-pending-GTQ").innerText()).toBe("Q 117.13");
      // Captured today: the last day of the chart's data holds it (amount and count).
      expect(text).toContain("Q 123.45 in 1 payment");
      expect(text).toContain("Café de Huehuetenango");
      await poll(() => page.getByTestId("volume-chart-GTQ").locator("canvas").count()).toBeGreaterThan(0);
      await page.getByText("See the chart's data").first().click();
      const lastDay = page.getByRole("region", { name: "Chart of daily volume in GTQ" }).locator("tbody tr").last();
      expect(await lastDay.innerText()).toMatch(/Q 123\.45\s+1$/);
      await close();
    } finally {
      await failing.stop();
    }
  });
});

describe("payments", () => {
  test("a payment made through REST appears in the list and its detail with the right amount, fee and net", async () => {
    // Q 1,500.50 by card: fee 3.50 % (52.5175 → 52.52, half-up) + Q 2.00 = Q 54.52, net Q 1,445.98.
    const p = await capturedPayment({
      amount: "150050",
      description: "Huipil de Chichicastenango",
      customer: { email: "ana.lopez@example.com", name: "Ana López" },
    });
    const rest = (await stack().http.getPayment(m.testApiKey, p.id)).json;
    expect({ fee: rest.service_fee, net: rest.net_amount }).toEqual({ fee: "5452", net: "144598" });

    const { page, close } = await signedInPage(stack(), browser(), viewer, { locale: "en-US" });
    await page.goto(url("/payments"));
    await mainText(page);
    const row = page.locator("tr", { has: page.getByRole("link", { name: p.id }) });
    await poll(() => row.innerText()).toContain("Q 1,500.50");
    expect(await row.innerText()).toMatch(
      /Q 1,500\.50[\s\S]*Captured[\s\S]*Card[\s\S]*Ana López[\s\S]*ana\.lopez@example\.com[\s\S]*Huipil de Chichicastenango/,
    );

    // Searching by the customer's e-mail finds it; another status hides it.
    await page.getByLabel("Search").fill("ANA.LOPEZ@");
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await poll(() => page.url()).toContain("search=ANA.LOPEZ%40");
    // The form is not rebuilt under the keyboard: the button just pressed keeps the focus.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Filter");
    await poll(() => row.count()).toBe(1);
    // "Export CSV" downloads exactly that filtered list, with the browser's session.
    const exported = await page.request.get(new URL((await page.getByTestId("export-csv").getAttribute("href"))!, stack().baseUrl).toString());
    expect(exported.status()).toBe(200);
    const csvLines = (await exported.text()).trim().split(/\r?\n/);
    expect(csvLines).toHaveLength(2);
    expect(csvLines[1]).toContain(p.id);
    await page.getByLabel("Status").selectOption("refunded");
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await poll(() => row.count()).toBe(0);
    // The export link carries the same filters, as the core's export route names them.
    const href = await page.getByTestId("export-csv").getAttribute("href");
    expect(new URL(href!, stack().baseUrl).searchParams.get("status")).toBe("refunded");
    expect(new URL(href!, stack().baseUrl).searchParams.get("search")).toBe("ANA.LOPEZ@");

    await page.goto(url(`/payments/${p.id}`));
    await mainText(page);
    expect(await page.getByTestId("detail-amount").innerText()).toBe("Q 1,500.50");
    expect(await page.getByTestId("detail-fee").innerText()).toBe("Q 54.52");
    expect(await page.getByTestId("detail-net").innerText()).toBe("Q 1,445.98");
    const text = await page.locator("main").innerText();
    expect(text).toContain("Ana López");
    expect(text).toContain(p.checkout_url);
    expect(text).toContain("payment.succeeded");
    // A viewer sees no refund or cancel (the core would refuse them anyway).
    expect(await page.getByRole("heading", { name: "Refund", exact: true }).count()).toBe(0);
    await close();
  });

  test("keyset pages: 25 a page, newest first, next and previous", async () => {
    const shop = await stack().admin.createMerchant({ name: "Tienda Páginas" });
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) ids.push((await createOk(stack().http, shop.testApiKey, { amount: String(1000 + i) })).id);
    const newestFirst = ids.reverse();
    const { page, close } = await signedInPage(stack(), browser(), await seedUser(stack(), shop.merchantId, "viewer"), { locale: "en-US" });
    await page.goto(url("/payments"));
    await mainText(page);
    const shown = () => page.locator("main tbody tr a").allInnerTexts();
    expect(await shown()).toEqual(newestFirst.slice(0, 25));
    await page.getByRole("button", { name: "Next page" }).click();
    await poll(shown).toEqual(newestFirst.slice(25));
    expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Previous page" }).click();
    await poll(shown).toEqual(newestFirst.slice(0, 25));
    await close();
  });

  test("a refund made in the dashboard is the refund the API shows, with the same ledger lines and a refund.succeeded webhook", async () => {
    const p = await capturedPayment({ amount: "20000" });
    const { page, close } = await signedInPage(stack(), browser(), admin, { locale: "en-US" });
    await page.goto(url(`/payments/${p.id}`));
    await mainText(page);
    await page.getByLabel("Partial refund").check();
    await page.getByLabel("Amount to refund").fill("50.25");
    await page.getByLabel("Reason").selectOption("duplicate_charge");
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    await page.getByText("Refunded Q 50.25.").waitFor();
    await poll(() => page.getByTestId("detail-refunded").innerText()).toBe("Q 50.25");

    const refunds = (await stack().http.get(`/v1/refunds?payment_id=${p.id}`, { key: m.testApiKey })).json.data;
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ payment_id: p.id, amount: "5025", currency: "GTQ", reason: "duplicate_charge", status: "succeeded" });
    // The page lists that refund, and the ledger transaction it wrote, line by line.
    expect(await page.locator("main").innerText()).toContain(refunds[0].id);
    const lines = await stack().sql<{ account: string; amount: string }>(
      "select l.account, l.amount::text as amount from ledger_lines l join ledger_transactions t on t.id = l.transaction_id where t.refund_id = $1 order by l.id",
      [refunds[0].id],
    );
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const ledgerText = await page.getByRole("region", { name: "Ledger transactions" }).first().innerText();
    for (const line of lines) expect(ledgerText).toContain(line.account);

    const delivered = await eventually(
      async () => receiver.requests.find((r) => JSON.parse(r.body.toString()).data?.id === refunds[0].id),
      30_000,
      "refund.succeeded",
    );
    const envelope = JSON.parse(delivered.body.toString());
    expect(envelope.type).toBe("refund.succeeded");
    expect(envelope.data).toMatchObject({ id: refunds[0].id, payment_id: p.id, amount: "5025" });
    await close();
  });

  test("cancel while payable, for an admin; a viewer's replayed cancel is refused and changes nothing", async () => {
    const p = await createOk(stack().http, m.testApiKey, { amount: "9900" });
    const refused = await dashMutation(stack(), "payments.cancel", { id: p.id }, { session: await signedIn(stack(), viewer) });
    expect(refused.code).toBe("unauthorized");
    expect((await stack().http.getPayment(m.testApiKey, p.id)).json.status).toBe("created");

    const { page, close } = await signedInPage(stack(), browser(), admin, { locale: "es-GT" });
    await page.goto(url(`/payments/${p.id}`));
    await mainText(page);
    await page.getByRole("button", { name: "Cancelar el pago" }).click();
    await page.getByRole("button", { name: "Sí, cancelar" }).click();
    await poll(async () => (await stack().http.getPayment(m.testApiKey, p.id)).json.status).toBe("canceled");
    await poll(() => page.locator("main").innerText()).toContain("Cancelado");
    expect(await page.getByRole("button", { name: "Cancelar el pago" }).count()).toBe(0);
    await close();
  });
});

/** The pixels of a PNG as Chromium decodes it (its own PNG decoder, not ours), read by jsQR here. */
async function decodePng(page: Page, png: Buffer): Promise<{ text: string | undefined; width: number; height: number }> {
  const { width, height, rgba } = await page.evaluate(
    async (dataUrl) => {
      const image = new Image();
      image.src = dataUrl;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext("2d")!;
      context.drawImage(image, 0, 0);
      const bytes = context.getImageData(0, 0, canvas.width, canvas.height).data;
      // Base64 crosses the protocol far faster than an array of millions of numbers.
      let binary = "";
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return { width: canvas.width, height: canvas.height, rgba: btoa(binary) };
    },
    `data:image/png;base64,${png.toString("base64")}`,
  );
  return { text: jsQR.default(new Uint8ClampedArray(Buffer.from(rgba, "base64")), width, height)?.data, width, height };
}

describe("payment links", () => {
  test("the create form shows the API's validation message on the field it names", async () => {
    const { page, close } = await signedInPage(stack(), browser(), admin, { locale: "en-US" });
    await page.goto(url("/links/new"));
    await mainText(page);
    await page.getByLabel("Title").fill("Donación");
    await page.getByLabel("The customer enters the amount").check();
    await page.getByLabel("Minimum", { exact: true }).fill("90");
    await page.getByLabel("Maximum", { exact: true }).fill("10");
    await page.getByRole("button", { name: "Create link" }).click();
    const minimum = page.getByLabel("Minimum", { exact: true });
    await poll(() => minimum.getAttribute("aria-invalid")).toBe("true");
    const described = await minimum.getAttribute("aria-describedby");
    expect(await page.locator(`[id="${described!.split(" ").at(-1)}"]`).innerText()).toBe("min_amount_minor must not be above max_amount_minor.");
    expect(await stack().sql("select id from links where merchant_id = $1 and title = 'Donación'", [m.merchantId])).toEqual([]);
    await close();
  });

  test("a link made in the dashboard is payable at /l/{id}, and its QR code PNG decodes to that URL", async () => {
    const { page, close } = await signedInPage(stack(), browser(), admin, { locale: "es-GT", acceptDownloads: true });
    await page.goto(url("/links/new"));
    await mainText(page);
    await page.getByLabel("Título").fill("Camisa bordada");
    await page.getByLabel("Descripción (opcional)").fill("Talla M, hecha a mano");
    await page.getByLabel("Monto", { exact: true }).fill("75");
    await page.getByLabel("Máximo de pagos (opcional)").fill("3");
    await page.getByRole("button", { name: "Crear enlace" }).click();
    await page.waitForURL(/\/dashboard\/links\/link_[0-9a-f]{24}$/);
    const id = page.url().split("/").at(-1)!;
    await mainText(page);
    const linkUrl = await page.getByTestId("link-url").innerText();
    expect(linkUrl).toBe(`${stack().publicBaseUrl}/l/${id}`);

    const rest = (await stack().http.get(`/v1/payment_links/${id}`)).json;
    expect(rest).toMatchObject({ title: "Camisa bordada", amount_type: "fixed", fixed_amount_minor: "7500", payable: true });
    const linkPage = await stack().http.get(`/l/${id}`);
    expect(linkPage.status).toBe(200);
    expect(linkPage.text).toContain("Camisa bordada");
    const paid = await stack().http.post(`/v1/payment_links/${id}/pay`, { idem: newIdemKey(), body: { method_type: "card" } });
    expect(paid.status, paid.text).toBe(201);
    expect(await payByCard(stack(), paid.json.id)).toBe("captured");

    // The code on the page: its one path of module runs reads back as the link's URL too.
    const svg = page.getByTestId("link-qr");
    const side = (await svg.getAttribute("viewBox"))!.split(" ")[2];
    const runs = await svg.locator('path[fill="#000"]').getAttribute("d");
    expect(decodeQrSvg(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}"><path fill="#000" d="${runs}"/></svg>`)).toBe(linkUrl);

    const download = page.waitForEvent("download");
    await page.getByTestId("qr-png").click();
    const file = await (await download).path();
    expect((await download).suggestedFilename()).toBe(`${id}-qr.png`);
    const decoded = await decodePng(page, readFileSync(file));
    expect(decoded.text).toBe(linkUrl);
    expect(decoded.width).toBeGreaterThanOrEqual(1200);

    // Its payments and its succeeded count, after a reload.
    await page.reload();
    await mainText(page);
    await poll(() => page.getByRole("region", { name: "Pagos de este enlace" }).first().innerText()).toContain(paid.json.id);
    await page.goto(url("/links"));
    const row = page.locator("tr", { has: page.getByRole("link", { name: "Camisa bordada" }) });
    await mainText(page);
    await poll(() => row.innerText()).toMatch(/Q 75\.00[\s\S]*Activo[\s\S]*1 de 3/);

    await page.goto(url(`/links/${id}`));
    await mainText(page);
    await page.getByRole("button", { name: "Desactivar el enlace" }).click();
    await page.getByRole("button", { name: "Sí, desactivar" }).click();
    await poll(async () => (await stack().http.get(`/v1/payment_links/${id}`)).json.not_payable_reason).toBe("inactive");
    await close();
  }, 120_000);
});

describe("balances and payouts", () => {
  test("an owner adds a bank account (masked from then on) and pays out now; the failed payout shows its reason", async () => {
    const p = await createOk(stack().http, m.testApiKey, { amount: "50000" });
    await driveToState(stack(), p.id, "available_to_merchant");
    const { page, close } = await signedInPage(stack(), browser(), owner, { locale: "en-US" });
    await page.goto(url("/balances"));
    await mainText(page);
    // The sandbox closes accounts ending in 0002: the payout fails and the money returns.
    await page.getByLabel("Account number").fill("1234560002");
    await page.getByLabel("Holder").fill("Tienda Paneles S.A.");
    await page.getByRole("button", { name: "Add account" }).click();
    await page.getByText("Account ****0002 added.").waitFor();
    expect(await page.getByLabel("Account number").inputValue()).toBe("");
    expect(await page.locator("main").innerText()).not.toContain("1234560002");
    const available = await page.getByTestId("available-GTQ").innerText();
    expect(available).not.toBe("Q 0.00");

    await page.getByRole("button", { name: "Pay out GTQ now" }).click();
    await page.getByText(/^Payout of Q [\d,.]+: Failed\.$/).waitFor();
    const payouts = await page.getByRole("region", { name: "Payouts" }).first().innerText();
    expect(payouts).toContain("****0002");
    expect(payouts).toContain("The account is closed (account_closed)");
    expect(payouts).toMatch(/Requested: [\s\S]*Failed: /);
    await poll(() => page.getByTestId("available-GTQ").innerText()).toBe(available);
    await close();

    // A viewer reads the same page without the actions.
    const asViewer = await signedInPage(stack(), browser(), viewer, { locale: "en-US" });
    await asViewer.page.goto(url("/balances"));
    await mainText(asViewer.page);
    expect(await asViewer.page.getByRole("button", { name: /Pay out/ }).count()).toBe(0);
    expect(await asViewer.page.getByRole("button", { name: "Add account" }).count()).toBe(0);
    await asViewer.page.goto(url("/links"));
    await mainText(asViewer.page);
    expect(await asViewer.page.getByRole("link", { name: "Create link" }).count()).toBe(0);
    await asViewer.close();
  });
});

describe("stored texts stay text", () => {
  const XSS = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><svg onload="window.__xss=3"></svg>"'&amp;`;

  test("a link's title and description and a customer's name and description render as typed on every page that shows them", async () => {
    const session = await signedIn(stack(), admin);
    const link = await dashMutation(
      stack(),
      "links.create",
      { title: `T ${XSS}`, description: `D ${XSS}`, currency: "GTQ", fixed_amount_minor: "1000" },
      { session },
    );
    expect(link.status, link.message).toBe(200);
    const p = await capturedPayment({ amount: "1234", description: `P ${XSS}`, customer: { name: `N ${XSS}`, email: "xss@example.com" } });
    const { page, close } = await signedInPage(stack(), browser(), admin, { locale: "en-US" });
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    for (const [route, shown] of [
      ["/", [`N ${XSS}`, `P ${XSS}`]],
      ["/payments", [`N ${XSS}`, `P ${XSS}`]],
      [`/payments/${p.id}`, [`N ${XSS}`, `P ${XSS}`]],
      ["/links", [`T ${XSS}`]],
      [`/links/${link.data.id}`, [`T ${XSS}`, `D ${XSS}`]],
    ] as const) {
      await page.goto(url(route));
      const text = await mainText(page);
      for (const literal of shown) expect(text, route).toContain(literal);
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss), route).toBeUndefined();
      expect(await page.locator('main img[src="x"], main script, main svg[onload]').count(), route).toBe(0);
    }
    expect(dialogs).toEqual([]);
    await close();
  });
});

describe("stored texts stay text: Team, Security, Balances, the invite page and the shell", () => {
  const XSS = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><svg onload="window.__xss=3"></svg>"'&amp;`;
  // An e-mail may hold markup too: the invite's rule is only "no white space, one @, a dot after it".
  const XSS_EMAIL = `<img/src=x/onerror=window.__xss=4><svg/onload=window.__xss=5>@evil.example`;

  test("an e-mail, a User-Agent, a bank account's bank and holder and a merchant's name render as typed wherever they show", async () => {
    const s = stack();
    const shop = await s.admin.createMerchant({ name: `M ${XSS}` });
    const boss = await seedUser(s, shop.merchantId, "owner");
    // A member whose e-mail is markup, signed in (the audit log names them) from a browser whose User-Agent is markup.
    const invited = await s.core.admin.inviteUser({ merchant_id: shop.merchantId, email: XSS_EMAIL, role: "admin" });
    expect(invited.email).toBe(XSS_EMAIL.toLowerCase());
    const token = invited.invite_url.slice(invited.invite_url.lastIndexOf("/") + 1);
    const accepted = await dashMutation(s, "auth.acceptInvite", { token, password: "a long enough passphrase" }, { userAgent: `UA ${XSS}` });
    expect(accepted.status, accepted.message).toBe(200);
    const bossSession = await signedIn(s, boss);
    const account = await dashMutation(
      s,
      "bankAccounts.add",
      { currency: "GTQ", account_number: "1234567891", bank_name: `B ${XSS}`, holder_name: `H ${XSS}` },
      { session: bossSession },
    );
    expect(account.status, account.message).toBe(200);
    // Another, unused invite for the invite page.
    const pendingInvite = await s.core.admin.inviteUser({ merchant_id: shop.merchantId, email: `x${XSS_EMAIL}`, role: "viewer" });

    const { page, close } = await signedInPage(s, browser(), boss, { locale: "en-US" });
    // A second session of the boss's, from the markup User-Agent: the Security page lists it.
    await signedIn(s, boss, { userAgent: `UA ${XSS}` });
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const inert = async (where: string) => {
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss), where).toBeUndefined();
      expect(await page.locator('img[src="x"], main script, svg[onload], body > script:not([src])').count(), where).toBe(0);
    };
    for (const [route, shown] of [
      ["/team", [XSS_EMAIL.toLowerCase(), `x${XSS_EMAIL}`.toLowerCase()]],
      ["/security", [`UA ${XSS}`, XSS_EMAIL.toLowerCase()]],
      ["/balances", [`B ${XSS}`, `H ${XSS}`]],
    ] as const) {
      await page.goto(url(route));
      const text = await mainText(page);
      for (const literal of shown) await poll(() => page.locator("main").innerText()).toContain(literal);
      expect(text).toContain(shown[0]);
      await inert(route);
    }
    // The shell: the merchant's name beside the mode switch.
    expect(await page.locator(".merchant").innerText()).toContain(`M ${XSS}`);
    await inert("shell");
    await close();

    const invitePage = await appPage(browser(), { locale: "en-US" });
    invitePage.page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await invitePage.page.goto(pendingInvite.invite_url);
    await poll(() => invitePage.page.locator("main").innerText()).toContain(`Invitation for ${`x${XSS_EMAIL}`.toLowerCase()} to M ${XSS} as Viewer.`);
    expect(await invitePage.page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(await invitePage.page.locator('img[src="x"], main script, svg[onload]').count()).toBe(0);
    await invitePage.close();
    expect(dialogs).toEqual([]);
  });
});

describe("test and live never mix", () => {
  test("nothing of live mode shows on any page in test mode, nor of test mode in live; switched, each mode's own objects do", async () => {
    const s = stack();
    const shop = await s.admin.createMerchant({ name: "Tienda Dos Modos" });
    const boss = await seedUser(s, shop.merchantId, "owner");
    const objects = async (mode: "test" | "live", key: string) => {
      const marker = `${mode.toUpperCase()}-ONLY`;
      const payment = await createOk(s.http, key, {
        amount: "4321",
        description: `${marker} desc`,
        customer: { name: `${marker} name`, email: "m@example.com" },
      });
      const session = await signedIn(s, boss);
      if (mode === "live") expect((await dashMutation(s, "auth.switchMode", { mode: "live" }, { session })).status).toBe(200);
      const link = await dashMutation(s, "links.create", { title: `${marker} link`, currency: "GTQ", fixed_amount_minor: "1000" }, { session });
      expect(link.status, link.message).toBe(200);
      const account = await dashMutation(s, "bankAccounts.add", { currency: "GTQ", account_number: "99887766", bank_name: `${marker} bank` }, { session });
      expect(account.status, account.message).toBe(200);
      if (mode === "live") await dashMutation(s, "auth.switchMode", { mode: "test" }, { session });
      return { marker, payment: payment.id as string, link: link.data.id as string };
    };
    const made = { test: await objects("test", shop.testApiKey), live: await objects("live", shop.liveApiKey) };

    const { page, close } = await signedInPage(s, browser(), boss, { locale: "en-US" });
    const modeGroup = page.getByRole("group", { name: "Mode" });
    for (const [mode, other] of [
      ["test", "live"],
      ["live", "test"],
    ] as const) {
      if (mode === "live") {
        await page.goto(url("/"));
        await modeGroup.getByRole("button", { name: "Live" }).click();
        await poll(() => modeGroup.getByRole("button", { name: "Live" }).getAttribute("aria-pressed")).toBe("true");
      }
      const own = made[mode];
      const foreign = made[other];
      for (const [route, expected] of [
        ["/", [own.marker]],
        ["/payments", [own.payment, own.marker]],
        [`/payments/${own.payment}`, [own.marker]],
        [`/payments/${foreign.payment}`, []],
        ["/links", [own.marker]],
        [`/links/${own.link}`, [own.marker]],
        [`/links/${foreign.link}`, []],
        ["/balances", [own.marker]],
      ] as const) {
        await page.goto(url(route));
        await page.locator("main h1").waitFor();
        await poll(() => page.locator("main .loading").count()).toBe(0);
        for (const shown of expected) await poll(() => page.locator("main").innerText()).toContain(shown);
        const text = await page.locator("main").innerText();
        expect(text, `${mode} ${route}`).not.toContain(foreign.marker);
        if (!route.includes(foreign.payment) && !route.includes(foreign.link)) {
          expect(text, `${mode} ${route}`).not.toContain(foreign.payment);
          expect(text, `${mode} ${route}`).not.toContain(foreign.link);
        }
        expect(await page.getByTestId("test-banner").count(), `${mode} ${route}`).toBe(mode === "test" ? 1 : 0);
      }
    }
    await close();
  });
});

describe("every page, both languages, 1280 px and 360×640", () => {
  test("home, payments, a payment, links, a new link, a link, balances and payouts", async () => {
    const p = await capturedPayment({ amount: "250000", description: "Mesa de madera", customer: { name: "Luis Pérez", email: "luis@example.com" } });
    const session = await signedIn(stack(), owner);
    const link = await dashMutation(
      stack(),
      "links.create",
      { title: "Clases de marimba", currency: "GTQ", min_amount_minor: "5000", max_amount_minor: "90000" },
      { session },
    );
    const routes = [
      ["home", "/"],
      ["payments", "/payments"],
      ["payment", `/payments/${p.id}`],
      ["links", "/links"],
      ["link-new", "/links/new"],
      ["link", `/links/${link.data.id}`],
      ["balances", "/balances"],
    ] as const;
    for (const { lang, locale } of LANGUAGES) {
      for (const viewport of VIEWPORTS) {
        const { page, csp, close } = await signedInPage(stack(), browser(), owner, { locale, ...viewport.options });
        for (const [name, route] of routes) {
          await page.goto(url(route));
          await mainText(page);
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
          // The chart's own chunk has drawn before the scan and the screenshot.
          if (name === "home") await page.locator(".volume-chart canvas").first().waitFor();
          await checkPage(page, `money-${name}-${lang}-${viewport.name}`, viewport.options.viewport.width);
        }
        expect(csp).toEqual([]);
        await close();
      }
    }
  }, 240_000);

  test("the payments page loads within 250 KB of gzip JS and CSS; uPlot only with Home", async () => {
    const dist = path.join(REPO_ROOT, "dist", "dashboard");
    const manifest = JSON.parse(readFileSync(path.join(dist, ".vite", "manifest.json"), "utf8")) as Record<
      string,
      { file: string; imports?: string[]; css?: string[]; dynamicImports?: string[] }
    >;
    const closure = (...keys: string[]) => {
      const files = new Set<string>();
      const visit = (key: string) => {
        const chunk = manifest[key]!;
        if (files.has(chunk.file)) return;
        files.add(chunk.file);
        for (const css of chunk.css ?? []) files.add(css);
        for (const imported of chunk.imports ?? []) visit(imported);
      };
      keys.forEach(visit);
      return files;
    };
    const payments = closure("index.html", "src/pages/Payments.tsx");
    const gzipBytes = [...payments].reduce((sum, file) => sum + gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length, 0);
    expect(gzipBytes).toBeLessThanOrEqual(250 * 1024);
    const chart = manifest["src/components/VolumeChart.tsx"]!.file;
    expect(payments).not.toContain(chart);
    expect(closure("index.html", "src/pages/Home.tsx")).not.toContain(chart);
    expect(manifest["src/pages/Home.tsx"]!.dynamicImports).toContain("src/components/VolumeChart.tsx");
  });
});
