import type { ReactNode } from "react";

/** A description list of facts, term above value, in as many columns as fit (styles/pages.css `dl.facts`). */
export function Facts({ children }: { children: ReactNode }) {
  return <dl className="facts">{children}</dl>;
}

/** One fact: its term and its value. */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="item">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
