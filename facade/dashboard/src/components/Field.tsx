import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";

interface FieldFrame {
  label: string;
  /** Shown under the field, announced with it (aria-describedby), and marks it invalid. */
  error?: string | undefined;
  hint?: ReactNode;
}

function describedBy(hintId: string | undefined, errorId: string | undefined): string | undefined {
  return [hintId, errorId].filter(Boolean).join(" ") || undefined;
}

/** A labelled input with its hint and error tied to it for screen readers. Other props go to the <input>. */
export function TextField({ label, error, hint, id, ...input }: FieldFrame & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  const errorId = error ? `${fieldId}-error` : undefined;
  return (
    <div className={error ? "field field-invalid" : "field"}>
      <label htmlFor={fieldId}>{label}</label>
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      <input id={fieldId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(hintId, errorId)} {...input} />
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled <select> with the same frame as TextField. */
export function SelectField({
  label,
  error,
  hint,
  id,
  options,
  ...select
}: FieldFrame & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly { value: string; label: string }[] }) {
  const auto = useId();
  const fieldId = id ?? auto;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  const errorId = error ? `${fieldId}-error` : undefined;
  return (
    <div className={error ? "field field-invalid" : "field"}>
      <label htmlFor={fieldId}>{label}</label>
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      <select id={fieldId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(hintId, errorId)} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
