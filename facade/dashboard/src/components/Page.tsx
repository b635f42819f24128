import { useEffect, useRef, type ReactNode } from "react";
import { useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";

/**
 * A page's frame: its <h1> (which also becomes the document title), optional actions beside it,
 * and the content. The heading takes focus when the page opens, so keyboard and screen-reader
 * users land on the new page rather than on the link they followed.
 */
export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const m = useMessages(shellMessages);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · ${m.product}`;
  }, [title, m.product]);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section className="page">
      <div className="page-header">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

/** While a page's data loads. */
export function Loading() {
  const m = useMessages(shellMessages);
  return (
    <p className="loading" role="status">
      {m.loading}
    </p>
  );
}
