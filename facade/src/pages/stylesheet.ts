import { createHash } from "node:crypto";

// Served as a file rather than inline so the pages' CSP can allow styles from 'self' only,
// without 'unsafe-inline'.
export const STYLESHEET = `body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; background: #f4f5f7; color: #1b1f24; }
main { max-width: 28rem; margin: 2rem auto; background: #fff; border-radius: 12px; padding: 1.5rem; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
h1 { font-size: 1.25rem; margin: 0 0 1rem; }
h2 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
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
a.button, button.button { display: block; box-sizing: border-box; width: 100%; text-align: center; padding: .75rem; border-radius: 8px; border: 1px solid #1b1f24; background: #1b1f24; color: #fff; font: inherit; font-weight: 600; text-decoration: none; margin-top: 1rem; cursor: pointer; }
a.secondary, button.secondary { background: transparent; color: #1b1f24; border: 1px solid #8a929c; font-weight: 400; }
button.button:disabled { background: #5b6470; border-color: #5b6470; cursor: progress; }
button.secondary:disabled { background: #eceef1; color: #3d444d; }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
form { margin: 0; }
.field { margin: 0 0 .9rem; }
.field label { display: block; font-weight: 600; margin-bottom: .25rem; }
.field input { box-sizing: border-box; width: 100%; font: inherit; font-size: 1.05rem; padding: .6rem .7rem; border: 1px solid #8a929c; border-radius: 8px; background: #fff; color: #1b1f24; }
.field input[aria-invalid="true"] { border: 2px solid #b3261e; }
.field label + .hint { margin: 0 0 .3rem; font-size: .85rem; }
.field-error { margin: .3rem 0 0; font-size: .9rem; color: #b3261e; font-weight: 600; }
.brand { margin: .3rem 0 0; font-size: .9rem; color: #3d444d; min-height: 1.2em; }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: 0 .75rem; }
.notice, .error-summary { border: 2px solid #b3261e; border-radius: 8px; padding: .6rem .75rem; margin: 0 0 1rem; background: #fdf1f0; }
.error-summary p { margin: 0 0 .3rem; font-weight: 600; }
.error-summary ul { margin: 0; padding-left: 1.2rem; }
.error-summary a { color: #b3261e; }
dl.bank { grid-template-columns: 1fr; gap: .15rem; }
dl.bank dd { margin-bottom: .6rem; word-break: normal; overflow-wrap: anywhere; }
.copyable { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 1.05rem; }
button.copy { font: inherit; font-size: .85rem; padding: .2rem .6rem; border-radius: 6px; border: 1px solid #8a929c; background: #fff; color: #1b1f24; cursor: pointer; }
.copied { font-size: .85rem; color: #1d6b35; font-weight: 400; }
.waiting { display: flex; align-items: center; gap: .6rem; background: #eef4ff; border-radius: 8px; padding: .6rem .75rem; }
.spinner { flex: none; width: 1rem; height: 1rem; border-radius: 50%; border: 3px solid #b9c8e6; border-top-color: #2563eb; animation: spin 1s linear infinite; }
@keyframes spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation: none; } }
.brand-bar { display: flex; align-items: center; gap: .75rem; margin: -1.5rem -1.5rem 1rem; padding: .75rem 1.5rem; border-radius: 12px 12px 0 0; background: #fff; color: #1b1f24; font-weight: 600; border-bottom: 1px solid #e3e6ea; }
.brand-logo { display: block; max-height: 48px; max-width: 60%; width: auto; height: auto; }
.brand-name { overflow-wrap: anywhere; }
@media (max-width: 400px) { main { margin: 0; border-radius: 0; box-shadow: none; padding: 1.25rem 1rem; } .row { grid-template-columns: 1fr; } .brand-bar { margin: -1.25rem -1rem 1rem; padding: .75rem 1rem; border-radius: 0; } }
[hidden] { display: none !important; }
`;

/** The content hash in the path lets browsers cache it for good: a changed sheet is a new URL. */
export const STYLESHEET_PATH = `/assets/pages.${createHash("sha256").update(STYLESHEET).digest("hex").slice(0, 12)}.css`;
