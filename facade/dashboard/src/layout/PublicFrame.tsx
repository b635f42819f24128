import { useEffect, useRef, type ReactNode } from "react";
import { useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";
import { LanguageSwitch } from "./LanguageSwitch.tsx";

/** The frame of the pages without a session (sign-in, invite, reset): a card with the product's name and the language switch. */
export function PublicFrame({ title, children }: { title: string; children: ReactNode }) {
  const m = useMessages(shellMessages);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · ${m.product}`;
  }, [title, m.product]);
  return (
    <div className="public">
      <header className="public-header">
        <span className="brand">{m.product}</span>
        <LanguageSwitch />
      </header>
      <main id="main" className="public-card">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {children}
      </main>
    </div>
  );
}
