// Human-readable rendering of the public JSON objects (proto/payment-json.ts builds them).
export function describeObject(view: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(view).map((key) => key.length));
  return Object.entries(view)
    .map(([key, value]) => `  ${key.padEnd(width)}  ${value === null ? "-" : String(value)}`)
    .join("\n");
}
