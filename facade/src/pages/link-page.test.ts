import { h } from "preact";
import { describe, expect, it } from "vitest";
import type { HostedLink } from "./hosted-link.ts";
import { LinkDonePage, LinkPage, NotPayableLinkPage } from "./link-page.tsx";
import { renderDocument } from "./render-document.ts";

// Titles, descriptions and trade names are the merchant's text and must never become markup.
const HOSTILE = `<script>alert(1)</script>"'&<img src=x onerror=alert(2)>`;
const link: HostedLink = {
  id: `link_"><script>alert(3)</script>`,
  title: HOSTILE,
  description: HOSTILE,
  merchantName: HOSTILE,
  currency: "GTQ",
  mode: "test",
  amount: { min: "1000", max: "500000" },
  methods: ["card", "bank_transfer"],
  url: `https://pay.example/l/link_"><script>alert(4)</script>`,
  brand: {},
};

function decode(html: string): string {
  return html.replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" })[e]!);
}
function tags(html: string): string[] {
  return [...html.matchAll(/<([a-z][a-z0-9]*)[\s/>]/gi)].map((m) => m[1]!.toLowerCase());
}
function attributes(html: string): string[] {
  return [...html.matchAll(/<[a-z][^>]*>/gi)].flatMap((tag) => [...tag[0].matchAll(/\s([a-z-:]+)(?==)/gi)].map((m) => m[1]!));
}
/** content of <meta property|name="…">. */
function meta(html: string, name: string): string | undefined {
  const m = new RegExp(`<meta (?:property|name)="${name}" content="([^"]*)"`).exec(html);
  return m ? decode(m[1]!) : undefined;
}

describe("link pages escape what they show", () => {
  it("the variable link page renders hostile text as text, with one script: the hashed asset", () => {
    const html = renderDocument(h(LinkPage, { link, locale: "es", form: { idempotencyKey: "k".repeat(36), amountText: HOSTILE, amountError: "bad" } }));
    expect(tags(html).filter((t) => t === "script" || t === "img")).toEqual(["script"]);
    expect(html).toMatch(/<script src="\/assets\/link\.[0-9a-f]{12}\.js" defer><\/script>/);
    expect(attributes(html).every((a) => !a.startsWith("on"))).toBe(true);
    expect(decode(html)).toContain(`<h1>${HOSTILE}</h1>`);
    expect(decode(html)).toContain(`value="${HOSTILE}"`);
    expect(html).toContain(`action="/l/link_%22%3E%3Cscript%3Ealert(3)%3C%2Fscript%3E"`);
    expect(meta(html, "og:title")).toBe(HOSTILE);
    expect(meta(html, "og:url")).toBe(link.url);
    expect(meta(html, "og:description")).toBe(`Q 10.00 – Q 5,000.00 · ${HOSTILE} · ${HOSTILE}`);
    expect(meta(html, "twitter:card")).toBe("summary");
  });

  it("the fixed link page shows the amount, no amount field, and only the link's methods", () => {
    const html = renderDocument(
      h(LinkPage, { link: { ...link, amount: { fixed: "15000" }, methods: ["card"] }, locale: "en", form: { idempotencyKey: "abc12345" } }),
    );
    expect(html).not.toContain('name="amount"');
    expect(html).toContain("Pay Q 150.00");
    expect([...html.matchAll(/name="method_type" value="([a-z_]+)"/g)].map((m) => m[1])).toEqual(["card"]);
    expect(html).toContain('<input type="hidden" name="idempotency_key" value="abc12345"/>');
    expect(meta(html, "og:description")).toBe(`Q 150.00 · ${HOSTILE} · ${HOSTILE}`);
  });

  it("the not-payable and done pages escape the merchant's text and have no form", () => {
    for (const html of [
      renderDocument(h(NotPayableLinkPage, { link, locale: "es", reason: "exhausted" })),
      renderDocument(h(LinkDonePage, { link, locale: "en", outcome: "not_completed", payment: { id: `pay_<b>`, amount: "2500", currency: "GTQ" } })),
    ]) {
      expect(tags(html)).not.toContain("form");
      expect(tags(html)).not.toContain("script");
      expect(tags(html)).not.toContain("b");
      expect(attributes(html).every((a) => !a.startsWith("on"))).toBe(true);
    }
  });
});
