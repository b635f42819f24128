import { createHash } from "node:crypto";

// Progressive enhancement only: the link page works without it, and its idempotency key already
// makes a second submit charge nothing. It keeps a double click from sending the form twice and
// shows the button as busy. A file of its own, so the CSP can stay `script-src 'self'`.
export const LINK_SCRIPT = `"use strict";
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-pay-form")) return;
  if (form.hasAttribute("data-sent")) { event.preventDefault(); return; }
  form.setAttribute("data-sent", "");
  var button = form.querySelector("button[type=submit]");
  if (button) { button.disabled = true; button.setAttribute("aria-busy", "true"); }
});
// A page restored from the back-forward cache must be usable again.
window.addEventListener("pageshow", function (event) {
  if (!event.persisted) return;
  document.querySelectorAll("form[data-sent]").forEach(function (form) {
    form.removeAttribute("data-sent");
    var button = form.querySelector("button[type=submit]");
    if (button) { button.disabled = false; button.removeAttribute("aria-busy"); }
  });
});
`;

/** Content-hashed, like the stylesheet: cached for good, a changed script is a new URL. */
export const LINK_SCRIPT_PATH = `/assets/link.${createHash("sha256").update(LINK_SCRIPT).digest("hex").slice(0, 12)}.js`;
