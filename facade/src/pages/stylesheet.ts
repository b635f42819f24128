import { createHash } from "node:crypto";

// Served as a file rather than inline so the pages' CSP can allow styles from 'self' only,
// without 'unsafe-inline'.
export const STYLESHEET = `body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; background: #f4f5f7; color: #1b1f24; }
main { max-width: 28rem; margin: 2rem auto; background: #fff; border-radius: 12px; padding: 1.5rem; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
h1 { font-size: 1.25rem; margin: 0 0 1rem; }
dl { display: grid; grid-template-columns: auto 1fr; gap: .5rem 1rem; margin: 0 0 1rem; }
dt { color: #5b6470; } dd { margin: 0; font-weight: 600; word-break: break-all; }
.amount { font-size: 1.75rem; font-weight: 700; margin: .25rem 0 1rem; }
.note { background: #fff7d6; border-radius: 8px; padding: .5rem .75rem; font-size: .9rem; }
a.button { display: block; text-align: center; padding: .75rem; border-radius: 8px; background: #1b1f24; color: #fff; text-decoration: none; margin-top: 1rem; }
a.secondary { background: transparent; color: #1b1f24; border: 1px solid #c9ced6; }
:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.merchant { color: #5b6470; font-weight: 600; margin: 0 0 .25rem; }
h2 { font-size: 1.05rem; margin: 1rem 0 .5rem; }
.field { margin: 0 0 1rem; }
label { display: block; font-weight: 600; margin: 0 0 .25rem; }
input[type=text] { box-sizing: border-box; width: 100%; font: inherit; font-size: 1.25rem; padding: .6rem .75rem; border: 1px solid #8a929c; border-radius: 8px; }
input[aria-invalid=true] { border-color: #b42318; }
.hint { color: #5b6470; font-size: .9rem; margin: .4rem 0 0; }
.field-error, .form-error { color: #b42318; font-weight: 600; margin: .25rem 0 0; }
fieldset { border: 0; padding: 0; margin: 0 0 1rem; }
legend { font-weight: 600; padding: 0; margin: 0 0 .25rem; }
label.choice { display: flex; align-items: center; gap: .6rem; font-weight: 400; padding: .6rem .75rem; border: 1px solid #c9ced6; border-radius: 8px; margin: 0 0 .5rem; cursor: pointer; }
label.choice input { width: 1.15rem; height: 1.15rem; margin: 0; }
button.button { display: block; width: 100%; font: inherit; font-weight: 600; padding: .75rem; border: 0; border-radius: 8px; background: #1b1f24; color: #fff; margin-top: 1rem; cursor: pointer; }
button.button:disabled { opacity: .6; cursor: progress; }
`;

/** The content hash in the path lets browsers cache it for good: a changed sheet is a new URL. */
export const STYLESHEET_PATH = `/assets/pages.${createHash("sha256").update(STYLESHEET).digest("hex").slice(0, 12)}.css`;
