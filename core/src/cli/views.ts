// Human-readable rendering of the public JSON objects (proto/payment-json.ts builds them).
/** A flat public object: every field a scalar or a list of strings, so each prints as itself. */
type FlatView = Readonly<Record<string, string | number | boolean | null | undefined | readonly string[]>>;

export function describeObject(view: FlatView): string {
  const width = Math.max(...Object.keys(view).map((key) => key.length));
  return Object.entries(view)
    .map(([key, value]) => `  ${key.padEnd(width)}  ${value === null ? "-" : String(value)}`)
    .join("\n");
}
