import { h } from "preact";
import { describe, expect, it } from "vitest";
import type { HostedPayment } from "./hosted-payment.ts";
import { MessagePage } from "./message-page.tsx";
import { CheckoutPage, ResolvedPaymentPage, type PageFrame } from "./payment-page.tsx";
import { renderDocument } from "./render-document.ts";

// Merchant names, descriptions and ids come from merchants and must never become markup.
const HOSTILE = `<script>alert(1)</script>"'&<img src=x onerror=alert(2)>`;
const payment: HostedPayment = {
  id: `pay_"><script>alert(3)</script>`,
  status: "created",
  amount: `1"><b onclick=x>`,
  currency: `GTQ" onmouseover="alert(4)`,
  description: HOSTILE,
  merchantName: HOSTILE,
  method: "card",
  mode: "test",
  successUrl: `https://shop.example/ok?x="><script>alert(5)</script>`,
  cancelUrl: `https://shop.example/no?x="><script>alert(6)</script>`,
  challengePending: false,
  embedOrigins: [],
  brand: {},
};
/** The same payment with harmless values: hostile data must render the very same elements. */
const plain: HostedPayment = {
  ...payment,
  id: "pay_1",
  amount: "1",
  currency: "GTQ",
  description: "d",
  merchantName: "m",
  successUrl: "https://shop.example/ok",
  cancelUrl: "https://shop.example/no",
};
const frame: PageFrame = { path: "/pay/pay_1", query: "", embedded: false, messageTargets: [] };

/** Undoes the escaping a browser would undo, to show the data arrives intact. */
function decode(html: string): string {
  return html.replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" })[e]!);
}

/** Every tag in the document, by name; hostile data must add none. */
function tags(html: string): string[] {
  return [...html.matchAll(/<([a-z][a-z0-9]*)[\s/>]/gi)].map((m) => m[1]!.toLowerCase());
}

/** Every attribute name; an attribute value that breaks out would add one (onclick, onmouseover…). */
function attributes(html: string): string[] {
  return [...html.matchAll(/<[a-z][^>]*>/gi)].flatMap((tag) => [...tag[0].matchAll(/\s([a-z-]+)(?==)/gi)].map((m) => m[1]!));
}

describe("hosted pages escape what they show", () => {
  it("the payment page renders hostile data as text, not markup", () => {
    const html = renderDocument(h(CheckoutPage, { payment, locale: "es", frame }));
    expect(html.startsWith('<!doctype html>\n<html lang="es">')).toBe(true);
    expect(tags(html)).toEqual(tags(renderDocument(h(CheckoutPage, { payment: plain, locale: "es", frame }))));
    expect(tags(html)).toEqual(expect.arrayContaining(["form", "input", "button", "script"]));
    expect(attributes(html).every((a) => !a.startsWith("on"))).toBe(true);
    expect(decode(html)).toContain(`Pago a ${HOSTILE}`);
    expect(decode(html)).toContain(`<p>${HOSTILE}</p>`);
    expect(decode(html)).toContain(`data-currency="${payment.currency}"`);
  });

  it("the resolved page renders hostile data as text, not markup", () => {
    const html = renderDocument(h(ResolvedPaymentPage, { payment, locale: "en", reason: "already_paid" }));
    expect(tags(html).sort()).toEqual(
      ["a", "body", "dd", "dd", "dl", "dt", "dt", "h1", "head", "html", "link", "main", "meta", "meta", "meta", "p", "title"].sort(),
    );
    expect(attributes(html).every((a) => !a.startsWith("on"))).toBe(true);
    expect(decode(html)).toContain(payment.id);
    // The return URL keeps the merchant's query (URL-encoded by URL) and gains payment_id.
    const href = decode(/<a class="button" href="([^"]*)"/.exec(html)![1]!);
    expect(new URL(href).searchParams.get("x")).toBe(`"><script>alert(5)</script>`);
    expect(new URL(href).searchParams.get("payment_id")).toBe(payment.id);
  });

  it("a message page escapes its title and text", () => {
    const html = renderDocument(h(MessagePage, { locale: "en", title: HOSTILE, message: HOSTILE }));
    expect(tags(html).sort()).toEqual(["body", "h1", "head", "html", "link", "main", "meta", "meta", "meta", "p", "title"].sort());
    expect(decode(html)).toContain(`<title>${HOSTILE} · Paytami</title>`);
  });
});

describe("the embed tells its parent the outcome", () => {
  it("carries the outcome as data for the script, escaped, with the message targets", () => {
    const embedded: PageFrame = { path: "/embed/pay_1", query: "?token=t", embedded: true, messageTargets: ["https://shop.example"] };
    const html = renderDocument(h(ResolvedPaymentPage, { payment: { ...payment, status: "captured" }, locale: "en", reason: "already_paid", frame: embedded }));
    expect(tags(html)).not.toContain("a");
    const data = JSON.parse(decode(/data-outcome="([^"]*)"/.exec(html)![1]!));
    expect(data).toEqual({
      type: "paytami.checkout",
      payment_id: payment.id,
      status: "captured",
      outcome: "succeeded",
      redirect_url: expect.stringContaining("payment_id="),
    });
    expect(JSON.parse(decode(/data-targets="([^"]*)"/.exec(html)![1]!))).toEqual(["https://shop.example"]);
  });
});

describe("the merchant's branding", () => {
  it("links the brand stylesheet and shows the logo band, with no inline style", () => {
    const brand = {
      brand: { background: "#1d4ed8", text: "#ffffff" },
      accent: { background: "#ffd400", text: "#1b1f24" },
      logoUrl: `/assets/logos/${"a".repeat(64)}.svg`,
    };
    const html = renderDocument(h(CheckoutPage, { payment: { ...plain, brand }, locale: "es", frame }));
    expect(html).toContain('<link rel="stylesheet" href="/assets/brand/1d4ed8-ffffff-ffd400-1b1f24.css"/>');
    expect(html).toContain(`<img class="brand-logo" src="/assets/logos/${"a".repeat(64)}.svg" alt/>`);
    expect(html).not.toMatch(/style=|<style/);
  });

  it("shows no band and no brand stylesheet when the merchant chose nothing", () => {
    const html = renderDocument(h(CheckoutPage, { payment: plain, locale: "en", frame }));
    expect(html).not.toContain("brand-bar");
    expect(html).not.toContain("/assets/brand/");
  });
});
