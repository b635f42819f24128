import type { JSX } from "preact";
import { renderToString } from "preact-render-to-string";

/** A whole HTML document; every text and attribute is escaped by the renderer, and preact has no doctype node. */
export function renderDocument(page: JSX.Element): string {
  return `<!doctype html>\n${renderToString(page)}`;
}
