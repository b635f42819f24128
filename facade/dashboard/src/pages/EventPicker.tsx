import { useId } from "react";
import { EVENT_TYPE_OPTIONS } from "./webhook-view.ts";

/** Checkboxes for the event catalog's types; none checked means every type (the endpoint's `enabled_events: []`). */
export function EventPicker({
  legend,
  hint,
  selected,
  onChange,
}: {
  legend: string;
  hint: string;
  selected: readonly string[];
  onChange: (types: string[]) => void;
}) {
  const hintId = useId();
  const toggle = (type: string, on: boolean) => onChange(on ? [...selected, type] : selected.filter((t) => t !== type));
  return (
    <fieldset className="choices" aria-describedby={hintId}>
      <legend>{legend}</legend>
      <p className="field-hint" id={hintId}>
        {hint}
      </p>
      {EVENT_TYPE_OPTIONS.map((type) => (
        <label key={type}>
          <input type="checkbox" name="enabled_events" value={type} checked={selected.includes(type)} onChange={(e) => toggle(type, e.target.checked)} />{" "}
          <span className="mono">{type}</span>
        </label>
      ))}
    </fieldset>
  );
}
