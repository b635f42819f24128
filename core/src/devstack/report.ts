// How the dev stack talks to the operator: one prefix for our own lines so they stand out among the
// children's JSON logs, and one error type for "cannot continue, here is what to do" conditions
// that the entry points print as a single line instead of a stack trace.

// Every line the dev stack prints starts with a fixed-width `name | `, children's lines included.
export function linePrefix(name: string): string {
  return `${name.padEnd(10)} | `;
}

export function say(message: string): void {
  process.stdout.write(`${linePrefix("paytami")}${message}\n`);
}

export function warn(message: string): void {
  process.stderr.write(`${linePrefix("paytami")}${message}\n`);
}

export class SetupError extends Error {
  override name = "SetupError";
}

export function describeError(error: unknown): string {
  if (error instanceof SetupError) return error.message;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
