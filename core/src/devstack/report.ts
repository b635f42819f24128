import { readFileSync } from "node:fs";
import { isAbsolute, relative } from "node:path";

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

// A path as the operator would type it: relative to the working directory when inside it.
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

function readLog(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "(no log)";
  }
}

export function tailOf(path: string, lines = 20): string {
  return readLog(path).trimEnd().split("\n").slice(-lines).join("\n");
}

// When a step failed: the end of its log from the last command's header line (see runCommand's
// logFile), each line under the step's name.
export function showTail(name: string, path: string, lines = 40): void {
  const text = readLog(path);
  const last = text
    .slice(text.lastIndexOf("\n===== ") + 1)
    .trimEnd()
    .split("\n")
    .slice(-lines);
  for (const line of last) process.stderr.write(`${linePrefix(name)}${line}\n`);
}

export class SetupError extends Error {
  override name = "SetupError";
}

export function describeError(error: unknown): string {
  if (error instanceof SetupError) return error.message;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
