import type { ComponentChildren } from "preact";
import { brandStylesheetPath, type PageBrand } from "./branding.ts";
import { CHECKOUT_SCRIPT_PATH } from "./checkout-script.ts";
import type { Locale } from "./locale.ts";
import { STYLESHEET_PATH } from "./stylesheet.ts";

/**
 * The document every hosted page shares: one column, readable on a phone, no inline scripts.
 * `head` adds what one page needs there (the link page's preview tags and its hashed script); the
 * payment pages with a form or a waiting state load the checkout script (deferred; everything works
 * without it).
 */
export function Layout({
  locale,
  title,
  head,
  script = false,
  merchant,
  children,
}: {
  locale: Locale;
  title: string;
  head?: ComponentChildren;
  script?: boolean;
  /** Whose page it is: its logo and colours (Settings) in a band at the top. */
  merchant?: { name: string; brand: PageBrand } | undefined;
  children: ComponentChildren;
}) {
  const brandCss = merchant && brandStylesheetPath(merchant.brand);
  const band = merchant && (merchant.brand.logoUrl || merchant.brand.accent);
  return (
    <html lang={locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} · Paytami`}</title>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        {brandCss ? <link rel="stylesheet" href={brandCss} /> : null}
        {head}
        {script ? <script src={CHECKOUT_SCRIPT_PATH} defer /> : null}
      </head>
      <body>
        <main>
          {band ? (
            <div class="brand-bar" data-brand-bar="">
              {merchant.brand.logoUrl ? <img class="brand-logo" src={merchant.brand.logoUrl} alt="" /> : null}
              <span class="brand-name">{merchant.name}</span>
            </div>
          ) : null}
          {children}
        </main>
      </body>
    </html>
  );
}
