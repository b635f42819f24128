import { describe, expect, it } from "vitest";
import { DomainError } from "../errors.ts";
import { sanitizeSvg } from "./svg-sanitize.ts";

const wrap = (inner: string, rootAttributes = "") => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"${rootAttributes}>${inner}</svg>`;

/** What must never survive in a served logo, whatever the input. */
function expectInert(svg: string): void {
  expect(svg).not.toMatch(/<script|<foreignObject|<style|<iframe|<image|<a[\s>]|<animate|<set[\s/>]|<!DOCTYPE|<!ENTITY/i);
  expect(svg).not.toMatch(/\son[a-z]+\s*=/i);
  expect(svg).not.toMatch(/javascript:|data:|https?:\/\/(?!www\.w3\.org\/(2000\/svg|1999\/xlink)")/i);
  expect(svg).not.toMatch(/url\((?!#)/i);
}

const refused = (input: string) => {
  try {
    sanitizeSvg(input);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("validation_error");
    return (error as DomainError).message;
  }
  throw new Error("not refused");
};

describe("SVG logo sanitiser", () => {
  it("keeps an ordinary logo's drawing", () => {
    const input = `<?xml version="1.0" encoding="UTF-8"?>
<!-- made by hand -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="40" viewBox="0 0 120 40" role="img" aria-label="Tienda &amp; Co">
  <title>Tienda &amp; Co</title>
  <defs><linearGradient id="g1"><stop offset="0" stop-color="#1d4ed8"/><stop offset="1" stop-color="#0f766e"/></linearGradient>
  <path id="dot" d="M0 0h4v4z"/></defs>
  <rect x="0" y="0" width="120" height="40" rx="6" fill="url(#g1)"/>
  <use xlink:href="#dot" x="8" y="8"/>
  <text x="60" y="26" text-anchor="middle" font-size="16" fill="#fff">Tienda</text>
</svg>`;
    const out = sanitizeSvg(input);
    expect(out).toContain('<rect x="0" y="0" width="120" height="40" rx="6" fill="url(#g1)"/>');
    expect(out).toContain('<use xlink:href="#dot" x="8" y="8"/>');
    expect(out).toContain("<title>Tienda &amp; Co</title>");
    expect(out).toContain('aria-label="Tienda &amp; Co"');
    expect(out).toContain('<stop offset="1" stop-color="#0f766e"/>');
    expect(out.startsWith('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"')).toBe(true);
    expectInert(out);
    // Idempotent: sanitising the output changes nothing.
    expect(sanitizeSvg(out)).toBe(out);
  });

  const hostile: Array<[string, string]> = [
    ["script element", wrap(`<script>alert(document.cookie)</script><rect width="1" height="1"/>`)],
    ["script with a namespace prefix", wrap(`<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)</svg:script>`)],
    ["self-closing script with src", wrap(`<script href="https://evil.example/x.js"/>`)],
    ["onload on the root", wrap(`<rect width="1" height="1"/>`, ` onload="alert(1)"`)],
    ["event handlers on children", wrap(`<g onclick="alert(1)" ONMOUSEOVER="alert(2)"><rect onfocus='x()' width="1" height="1"/></g>`)],
    [
      "foreignObject with HTML",
      wrap(`<foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></body></foreignObject>`),
    ],
    ["xlink:href to http on use", wrap(`<use xlink:href="https://evil.example/sprite.svg#a"/>`, ` xmlns:xlink="http://www.w3.org/1999/xlink"`)],
    ["href to javascript", wrap(`<a href="javascript:alert(1)"><rect width="1" height="1"/></a>`)],
    ["xlink:href javascript on a gradient", wrap(`<linearGradient id="g" xlink:href="javascript:alert(1)"/>`)],
    ["entity-encoded javascript", wrap(`<use href="&#106;avascript:alert(1)"/><rect fill="&#x6a;avascript:x" width="1" height="1"/>`)],
    ["use pointing outside", wrap(`<use href="/other.svg#x"/><use href="//evil.example/a.svg#b"/>`)],
    [
      "CSS url() in a presentation attribute",
      wrap(`<rect width="1" height="1" fill="url(https://evil.example/track.png)"/><rect width="1" height="1" mask="url( 'http://e.example/m' )"/>`),
    ],
    [
      "style element and attribute",
      wrap(`<style>rect{background:url(https://evil.example/t)}</style><rect style="fill:url(https://evil.example/t)" width="1" height="1"/>`),
    ],
    ["image with a data URL", wrap(`<image href="data:image/svg+xml;base64,PHN2Zz4=" width="1" height="1"/>`)],
    ["animate setting an href", wrap(`<animate attributeName="href" to="javascript:alert(1)"/><set attributeName="onload" to="alert(1)"/>`)],
    ["iframe", wrap(`<iframe src="https://evil.example"></iframe>`)],
    ["xml-stylesheet processing instruction", `<?xml-stylesheet href="https://evil.example/x.css"?>${wrap(`<rect width="1" height="1"/>`)}`],
    ["whitespace inside the scheme", wrap(`<use href="java&#9;script:alert(1)"/><rect fill=" javascript:x" width="1" height="1"/>`)],
  ];

  it.each(hostile)("makes %s inert", (_name, input) => {
    const out = sanitizeSvg(input);
    expectInert(out);
    expect(out).toMatch(/^<svg /);
  });

  it("keeps the harmless part of a hostile file", () => {
    const out = sanitizeSvg(wrap(`<script>alert(1)</script><circle cx="5" cy="5" r="4" fill="#123456" onload="x()"/>`));
    expect(out).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#123456"/></svg>',
    );
  });

  it.each([
    [
      "DOCTYPE with entity expansion",
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>${wrap("<text>&b;</text>")}`,
      "DOCTYPE",
    ],
    ["external entity", `<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${wrap("<text>&xxe;</text>")}`, "DOCTYPE"],
    ["undeclared entity", wrap("<text>&xxe;</text>"), "&xxe;"],
    ["CDATA", wrap("<script><![CDATA[alert(1)]]></script>"), "CDATA"],
    ["HTML, not SVG", `<html><body><script>alert(1)</script></body></html>`, "one <svg> element"],
    ["two roots", wrap("") + wrap(""), "one <svg> element"],
    ["unbalanced tags", `<svg xmlns="http://www.w3.org/2000/svg"><g></svg>`, "does not close"],
    ["never closed", `<svg xmlns="http://www.w3.org/2000/svg"><g>`, "never closed"],
    ["unquoted attribute", `<svg xmlns="http://www.w3.org/2000/svg" onload=alert(1)></svg>`, "malformed"],
    ["duplicate attribute", `<svg xmlns="http://www.w3.org/2000/svg"><rect fill="#000" fill="url(http://x)"/></svg>`, "twice"],
    ["text before the root", `hello${wrap("")}`, "outside"],
    ["nothing at all", ``, "no <svg>"],
    ["deep nesting", `<svg xmlns="http://www.w3.org/2000/svg">${"<g>".repeat(100)}${"</g>".repeat(100)}</svg>`, "deeper"],
  ])("refuses %s with a clear message", (_name, input, says) => {
    expect(refused(input)).toContain(says);
  });
});
