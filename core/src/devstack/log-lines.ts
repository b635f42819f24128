// How the children's output lines reach `npm start`'s terminal. The services always write pino
// JSON (one object per line, DESIGN §3 "Logs"); a person at a terminal gets each log line
// human-readable instead, anything else (a redirect, a pipe, CI) gets the JSON unchanged.
import pinoPretty from "pino-pretty";

export type LineFormatter = (line: string) => string;

export const unchanged: LineFormatter = (line) => line;

// A pino line: a JSON object with a numeric level. Other JSON (a dump, an array) and plain text
// (a crash trace, nats-server's own log) are not ours to reformat.
function parseLogRecord(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    if (value && typeof value === "object" && !Array.isArray(value) && typeof (value as { level?: unknown }).level === "number") {
      return value as Record<string, unknown>;
    }
  } catch {
    // not JSON after all
  }
  return undefined;
}

/** pino JSON lines as `[time] LEVEL: message {fields}` (an error's stack on the lines below); other lines unchanged. */
export function prettyLogLines(options: { colorize: boolean }): LineFormatter {
  const pretty = pinoPretty.prettyFactory({
    colorize: options.colorize,
    // One line per entry keeps three interleaved services readable.
    singleLine: true,
    // The line prefix already names the process.
    ignore: "pid,hostname,service,name",
    translateTime: "SYS:HH:MM:ss.l",
  });
  return (line) => {
    const record = parseLogRecord(line);
    return record ? pretty(record).replace(/\n+$/, "") : line;
  };
}

/** Human-readable for a terminal (colours unless NO_COLOR), JSON unchanged otherwise. */
export function logLinesFor(stream: NodeJS.WriteStream): LineFormatter {
  return stream.isTTY ? prettyLogLines({ colorize: pinoPretty.isColorSupported }) : unchanged;
}
