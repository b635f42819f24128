import { useState, type FormEvent, type ReactNode } from "react";
import { useSearchParams } from "wouter";
import { useKeysetPages } from "./DataTable.tsx";

/** A list's filters, each a text value by name (a URL parameter); an empty one is no filter. */
export type Filters = Partial<Record<string, string>>;

/**
 * A list's filters kept in the address (so back, forward and bookmarks work), with its keyset pages,
 * which start over whenever the filters are applied.
 */
export function useAddressFilters<F extends Filters>(parse: (params: URLSearchParams) => F) {
  const [params, setParams] = useSearchParams();
  const pages = useKeysetPages();
  return {
    address: params.toString(),
    filters: parse(params),
    pages,
    apply: (next: F) => {
      pages.reset();
      setParams(Object.fromEntries(Object.entries(next).filter((entry): entry is [string, string] => Boolean(entry[1]))));
    },
  };
}

/**
 * The filters being edited, with Apply and Clear. When the address changes (back/forward, a bookmark)
 * the form takes its filters, adjusted during render rather than by remounting, so the control a
 * keyboard user just pressed keeps the focus. `fields` draws the page's own controls.
 */
export function FilterForm<F extends Filters>({
  state: { address, filters: initial, apply: onApply },
  labels,
  fields,
}: {
  /** What useAddressFilters returned. */
  state: Pick<ReturnType<typeof useAddressFilters<F>>, "address" | "filters" | "apply">;
  labels: { legend: string; apply: string; clear: string };
  /** The page's controls; `bind(name)` is a control's value and change handler for filter `name`. */
  fields: (bind: (name: keyof F & string) => { value: string; onChange: (event: { target: { value: string } }) => void }) => ReactNode;
}) {
  const [draft, setDraft] = useState<F>(initial);
  const [shownAddress, setShownAddress] = useState(address);
  if (address !== shownAddress) {
    setShownAddress(address);
    setDraft(initial);
  }
  const bind = (name: keyof F & string) => ({
    value: draft[name] ?? "",
    onChange: (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [name]: event.target.value })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form className="filters panel" role="search" aria-label={labels.legend} onSubmit={submit}>
      {fields(bind)}
      <div className="form-actions">
        <button type="submit" className="button button-primary">
          {labels.apply}
        </button>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            setDraft({} as F);
            onApply({} as F);
          }}
        >
          {labels.clear}
        </button>
      </div>
    </form>
  );
}
