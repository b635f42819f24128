import { EVENT_TYPES } from "../../../../proto/event-catalog.ts";

/** The event catalog's types, as the event picker and the type filters offer them. */
export const EVENT_TYPE_OPTIONS: readonly string[] = EVENT_TYPES;

/** An event's envelope as readable JSON; shown as React text, so whatever a string inside holds stays inert. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
