import type { ComponentChildren } from "preact";
import type { Locale } from "./locale.ts";
import { STYLESHEET_PATH } from "./stylesheet.ts";

/** The document every hosted page shares: one column, readable on a phone, no scripts. */
export function Layout({ locale, title, children }: { locale: Locale; title: string; children: ComponentChildren }) {
  return (
    <html lang={locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} · Paytami`}</title>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
      </head>
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}
