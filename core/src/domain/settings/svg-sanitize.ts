import { fail } from "../errors.ts";

// A merchant's SVG logo, rebuilt from an allow-list (no sanitiser library that works without a DOM
// is installed). The input is tokenised strictly; what is kept is written out again from the
// parsed tokens, so nothing of the input reaches the output unparsed. Refused outright: a DOCTYPE
// or entity declaration (entity expansion), CDATA, an unknown entity, unbalanced or malformed tags.
// Dropped silently, with everything inside them: every element not on the list (script, style,
// foreignObject, image, a, iframe, animate, set, ...). Dropped from kept elements: every attribute
// not on the list (on* handlers, style), any href other than a same-document fragment, any value
// naming javascript:/data: or holding url() other than url(#id).
// The facade serves the result with a CSP that forbids script anyway (defence in depth).

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";

const ELEMENTS = new Set([
  "svg",
  "g",
  "defs",
  "symbol",
  "use",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "text",
  "tspan",
  "title",
  "desc",
  "linearGradient",
  "radialGradient",
  "stop",
  "clipPath",
  "mask",
]);

const ATTRIBUTES = new Set([
  "id",
  "x",
  "y",
  "x1",
  "y1",
  "x2",
  "y2",
  "cx",
  "cy",
  "r",
  "rx",
  "ry",
  "fx",
  "fy",
  "dx",
  "dy",
  "width",
  "height",
  "d",
  "points",
  "viewBox",
  "preserveAspectRatio",
  "transform",
  "version",
  "fill",
  "fill-opacity",
  "fill-rule",
  "stroke",
  "stroke-width",
  "stroke-linecap",
  "stroke-linejoin",
  "stroke-miterlimit",
  "stroke-dasharray",
  "stroke-dashoffset",
  "stroke-opacity",
  "opacity",
  "color",
  "clip-path",
  "clip-rule",
  "clipPathUnits",
  "mask",
  "maskUnits",
  "maskContentUnits",
  "offset",
  "stop-color",
  "stop-opacity",
  "gradientUnits",
  "gradientTransform",
  "spreadMethod",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-anchor",
  "dominant-baseline",
  "letter-spacing",
  "visibility",
  "display",
  "vector-effect",
  "role",
  "aria-label",
  "aria-hidden",
  "focusable",
  "xml:space",
]);

/** Elements whose href/xlink:href may point at a fragment of the same document. */
const REFERRERS = new Set(["use", "linearGradient", "radialGradient"]);
const FRAGMENT = /^#[A-Za-z_][\w.-]*$/;
const URL_FRAGMENT_ONLY = /^url\(\s*#[A-Za-z_][\w.-]*\s*\)$/;
const NAME = /^[A-Za-z_][\w.:-]*/;
const ATTRIBUTE = /^\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/;
const MAX_DEPTH = 64;

const refuse = (why: string): never => fail("validation_error", `The SVG logo was refused: ${why}.`);

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** The five XML entities and character references; anything else would need a DOCTYPE, which is refused. */
function decode(text: string): string {
  return text.replace(/&([^;\s&]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(";")) refuse("a bare & (write &amp;)");
    if (body in NAMED) return NAMED[body]!;
    const code = /^#x[0-9a-f]{1,6}$/i.test(body) ? Number.parseInt(body.slice(2), 16) : /^#[0-9]{1,7}$/.test(body) ? Number(body.slice(1)) : -1;
    if (code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) refuse(`the entity &${body.slice(0, 20)}; is not allowed`);
    return String.fromCodePoint(code);
  });
}

const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, "&quot;");

/** Whether a kept attribute's value is safe: no script or data URL, no url() but to a fragment. */
function safeValue(value: string): boolean {
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:").
  // eslint-disable-next-line no-control-regex -- matching control characters is the point here
  const squeezed = value.replace(/[\u0000-\u0020\u007f-\u009f]+/g, "").toLowerCase();
  if (/(javascript|vbscript|data):/.test(squeezed) || squeezed.includes("expression(")) return false;
  if (squeezed.includes("url(")) return URL_FRAGMENT_ONLY.test(value.trim());
  return true;
}

function keptAttributes(element: string, attributes: ReadonlyArray<[string, string]>): string {
  let out = "";
  const seen = new Set<string>();
  for (const [name, value] of attributes) {
    if (seen.has(name)) refuse(`the attribute ${name} appears twice`);
    seen.add(name);
    if (name === "href" || name === "xlink:href") {
      if (REFERRERS.has(element) && FRAGMENT.test(value.trim())) out += ` ${name}="${escapeAttribute(value.trim())}"`;
      continue;
    }
    if (!ATTRIBUTES.has(name) || !safeValue(value)) continue;
    out += ` ${name}="${escapeAttribute(value)}"`;
  }
  return out;
}

/** The sanitised SVG document (UTF-8 text), or a validation_error saying why it cannot be one. */
export function sanitizeSvg(input: string): string {
  const source = input.replace(/^\uFEFF/, "");
  if (/<!DOCTYPE|<!ENTITY|<!\[CDATA\[/i.test(source)) refuse("a DOCTYPE, entity declaration or CDATA section is not allowed");
  const open: string[] = [];
  let skipping = 0; // > 0 while inside a dropped element: its depth below the drop.
  let rootSeen = false;
  let out = "";
  let at = 0;
  while (at < source.length) {
    const lt = source.indexOf("<", at);
    const text = lt === -1 ? source.slice(at) : source.slice(at, lt);
    if (text) {
      const decoded = decode(text);
      if (open.length === 0) {
        if (decoded.trim()) refuse("text outside the <svg> element");
      } else if (skipping === 0) out += escapeText(decoded);
    }
    if (lt === -1) break;
    if (source.startsWith("<!--", lt)) {
      const end = source.indexOf("-->", lt + 4);
      if (end === -1) refuse("an unterminated comment");
      at = end + 3;
      continue;
    }
    if (source.startsWith("<?", lt)) {
      // The XML declaration and processing instructions (xml-stylesheet!) are dropped.
      const end = source.indexOf("?>", lt + 2);
      if (end === -1) refuse("an unterminated processing instruction");
      at = end + 2;
      continue;
    }
    if (source.startsWith("</", lt)) {
      const name = NAME.exec(source.slice(lt + 2))?.[0];
      const close = name ? /^\s*>/.exec(source.slice(lt + 2 + name.length)) : null;
      if (!name || !close) refuse("a malformed end tag");
      if (open.pop() !== name) refuse(`</${name!.slice(0, 40)}> does not close the open element`);
      if (skipping > 0) skipping--;
      else out += `</${name}>`;
      at = lt + 2 + name!.length + close![0].length;
      continue;
    }
    const name = NAME.exec(source.slice(lt + 1))?.[0];
    if (!name) refuse("a < that starts no tag (write &lt;)");
    let cursor = lt + 1 + name!.length;
    const attributes: Array<[string, string]> = [];
    for (;;) {
      const match = ATTRIBUTE.exec(source.slice(cursor));
      if (!match) break;
      attributes.push([match[1]!, decode(match[2] ?? match[3] ?? "")]);
      cursor += match[0].length;
    }
    const end = /^\s*(\/?)>/.exec(source.slice(cursor));
    if (!end) refuse(`a malformed <${name!.slice(0, 40)}> tag`);
    at = cursor + end![0].length;
    const selfClosing = end![1] === "/";
    if (open.length === 0) {
      if (rootSeen || name !== "svg") refuse("the document must be one <svg> element");
      rootSeen = true;
    }
    if (open.length >= MAX_DEPTH) refuse(`elements nested deeper than ${MAX_DEPTH}`);
    const kept = skipping === 0 && ELEMENTS.has(name!);
    if (kept) {
      const namespaces = open.length === 0 ? ` xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}"` : "";
      out += `<${name}${namespaces}${keptAttributes(name!, attributes)}${selfClosing ? "/>" : ">"}`;
    }
    if (!selfClosing) {
      open.push(name!);
      if (!kept) skipping++;
    }
  }
  if (!rootSeen) refuse("no <svg> element");
  if (open.length > 0) refuse(`<${open.at(-1)!.slice(0, 40)}> is never closed`);
  return out;
}
