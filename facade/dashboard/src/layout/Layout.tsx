import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";
import { atLeast } from "../roles.ts";
import { SESSION_ROUTES } from "../routes.tsx";
import { useSession, useSignOut } from "../session.tsx";
import { LanguageSwitch } from "./LanguageSwitch.tsx";
import { MerchantSwitch } from "./MerchantSwitch.tsx";
import { ModeSwitch } from "./ModeSwitch.tsx";

/** A section is current on its own path and below it ("/payments/pay_…" is under Payments); Home only on "/". */
function isCurrent(location: string, path: string): boolean {
  return path === "/" ? location === "/" : location === path || location.startsWith(`${path}/`);
}

/** The frame of every signed-in page: test-mode banner, header (merchant, mode, language, user), navigation, content. */
export function Layout({ children }: { children: ReactNode }) {
  const m = useMessages(shellMessages);
  const { me } = useSession();
  const [location, navigate] = useLocation();
  const signOut = useSignOut();
  const test = me.mode === "test";
  return (
    <div className={test ? "app app-test" : "app"}>
      <a className="skip-link" href="#main">
        {m.skipToContent}
      </a>
      {test && (
        <p className="test-banner" data-testid="test-banner">
          {m.testBanner}
        </p>
      )}
      <header className="topbar">
        <span className="brand">{m.product}</span>
        <MerchantSwitch />
        <ModeSwitch />
        <span className="topbar-end">
          <LanguageSwitch />
          <span className="user" title={m.signedInAs(me.user.email)}>
            <span className="visually-hidden">{m.signedInAs(me.user.email)}</span>
            <span aria-hidden="true">{me.user.email}</span>
          </span>
          <button
            type="button"
            className="button button-secondary"
            disabled={signOut.isPending}
            onClick={() => signOut.mutate(undefined, { onSettled: () => navigate("/sign-in") })}
          >
            {m.signOut}
          </button>
        </span>
      </header>
      <nav className="nav" aria-label={m.navLabel}>
        <ul>
          {SESSION_ROUTES.filter((route) => route.nav && atLeast(me.role, route.nav.least)).map((route) => (
            <li key={route.path}>
              <Link href={route.path} aria-current={isCurrent(location, route.path) ? "page" : undefined}>
                {m.nav[route.nav!.key]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
