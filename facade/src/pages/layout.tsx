import type { ComponentChildren } from "preact";
import { CHECKOUT_SCRIPT_PATH } from "./checkout-script.ts";
import type { Locale } from "./locale.ts";
import { STYLESHEET_PATH } from "./stylesheet.ts";

/**
 * The document every hosted page shares: one column, readable on a phone. Pages with a form or a
 * waiting state load the one checkout script (deferred; everything works without it).
 */
export function Layout({ locale, title, script = false, children }: { locale: Locale; title: string; script?: boolean; children: ComponentChildren }) {
  return (
    <html lang={locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} · Paytami`}</title>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        {script ? <script src={CHECKOUT_SCRIPT_PATH} defer /> : null}
      </head>
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}
