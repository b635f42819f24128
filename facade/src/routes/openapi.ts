import type { Router } from "@koa/router";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { buildDocument } from "../openapi/document.ts";
import { route } from "../openapi/operation.ts";
import { getOpenApiDocument } from "../openapi/operations/meta.ts";
import { serveAsset } from "./page-headers.ts";

/** The one address on another origin Redoc's bundle loads by itself: the logo of its sidebar footer. */
const REDOC_CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
/** An empty image in its place, so the page asks nothing of another origin. */
const EMPTY_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

/** Redoc's standalone bundle, served from our own origin under a content-hashed path (no CDN). */
function redocAsset(): { path: string; body: string } {
  const bundle = readFileSync(createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js"), "utf8");
  if (!bundle.includes(REDOC_CDN_LOGO)) throw new Error("Redoc's bundle changed: check what it loads from other origins (routes/openapi.ts)");
  const body = bundle.replaceAll(REDOC_CDN_LOGO, EMPTY_SVG);
  return { path: `/assets/redoc-${createHash("sha256").update(body).digest("hex").slice(0, 16)}.js`, body };
}

/**
 * The reference page: Redoc renders /v1/openapi.json (the getting-started steps, in English and
 * Spanish, are the document's own description). Scripts only from this origin; Redoc's styled
 * components write <style> elements and its search runs in a blob: worker, hence those two allowances.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

function docsPage(redocPath: string, specPath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="Paytami API reference and getting started / Referencia del API de Paytami y primeros pasos">
<title>Paytami API reference</title>
<style>
body { margin: 0; }
/* Code in the description wraps rather than scrolls: a scrolling block would need keyboard focus, and a phone has no room. */
.redoc-markdown pre, .redoc-markdown pre code { white-space: pre-wrap !important; overflow-wrap: anywhere !important; overflow: visible !important; }
</style>
</head>
<body>
<redoc spec-url="${specPath}" expand-responses="200,201" native-scrollbars></redoc>
<script src="${redocPath}"></script>
</body>
</html>
`;
}

/** GET /v1/openapi.json (the document, built once from the route declarations) and GET /docs. */
export function openApiRoutes(router: Router, publicBaseUrl: string): void {
  const document = JSON.stringify(buildDocument(publicBaseUrl));
  route(router, getOpenApiDocument, async (ctx) => {
    ctx.set("Cache-Control", "no-cache");
    // Generated clients and the reference page of other origins may fetch it.
    ctx.set("Access-Control-Allow-Origin", "*");
    ctx.body = document;
    ctx.type = "application/json";
  });

  const redoc = redocAsset();
  serveAsset(router, redoc.path, "text/javascript", redoc.body);
  const page = docsPage(redoc.path, getOpenApiDocument.path);
  router.get("/docs", async (ctx) => {
    ctx.set("Cache-Control", "no-cache");
    ctx.set("Content-Security-Policy", DOCS_CONTENT_SECURITY_POLICY);
    ctx.set("Referrer-Policy", "no-referrer");
    ctx.set("X-Frame-Options", "DENY");
    ctx.body = page;
    ctx.type = "text/html; charset=utf-8";
  });
}
