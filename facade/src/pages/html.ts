const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Adds payment_id to a merchant return URL, keeping its own query. */
export function returnUrl(base: string, paymentId: string): string {
  const url = new URL(base);
  url.searchParams.set("payment_id", paymentId);
  return url.toString();
}

export function layout(lang: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Paytami</title>
<style>
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; background: #f4f5f7; color: #1b1f24; }
  main { max-width: 28rem; margin: 2rem auto; background: #fff; border-radius: 12px; padding: 1.5rem; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .5rem 1rem; margin: 0 0 1rem; }
  dt { color: #5b6470; } dd { margin: 0; font-weight: 600; word-break: break-all; }
  .amount { font-size: 1.75rem; font-weight: 700; margin: .25rem 0 1rem; }
  .note { background: #fff7d6; border-radius: 8px; padding: .5rem .75rem; font-size: .9rem; }
  a.button { display: block; text-align: center; padding: .75rem; border-radius: 8px; background: #1b1f24; color: #fff; text-decoration: none; margin-top: 1rem; }
  a.secondary { background: transparent; color: #1b1f24; border: 1px solid #c9ced6; }
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}
