import type { ComponentChildren } from "preact";
import type { Locale } from "./locale.ts";
import { STYLESHEET_PATH } from "./stylesheet.ts";

/**
 * The document every hosted page shares: one column, readable on a phone, no inline scripts.
 * `head` adds what one page needs there (the link page's preview tags and its hashed script).
 */
export function Layout({ locale, title, head, children }: { locale: Locale; title: string; head?: ComponentChildren; children: ComponentChildren }) {
  return (
    <html lang={locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} · Paytami`}</title>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        {head}
      </head>
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}
