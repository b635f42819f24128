import { describe, expect, test } from "vitest";
import { logLinesFor, prettyLogLines } from "./log-lines.ts";

const pretty = prettyLogLines({ colorize: false });
const READY = JSON.stringify({
  level: 30,
  time: "2026-01-02T03:04:05.678Z",
  pid: 123,
  hostname: "box",
  service: "core",
  name: "core",
  grpc: "127.0.0.1:50051",
  http_port: 4001,
  msg: "core ready",
});

describe("log lines in a terminal", () => {
  test("a pino line becomes `[time] LEVEL: message {fields}` without pid, hostname or service", () => {
    const out = pretty(READY);
    expect(out).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: core ready \{"grpc":"127\.0\.0\.1:50051","http_port":4001\}$/);
    expect(out).not.toContain("hostname");
    expect(out).not.toContain("123");
    expect(out).not.toContain('"service"');
  });

  test("levels are named", () => {
    for (const [level, name] of [
      [20, "DEBUG"],
      [40, "WARN"],
      [50, "ERROR"],
      [60, "FATAL"],
    ] as const) {
      expect(pretty(JSON.stringify({ level, time: 0, msg: "m" }))).toContain(`${name}: m`);
    }
  });

  test("an error keeps its stack, on the lines below, and no trailing newline", () => {
    const line = JSON.stringify({
      level: 50,
      time: 0,
      service: "core",
      msg: "job run failed",
      err: { type: "Error", message: "boom", stack: "Error: boom\n    at run (jobs.ts:1:2)" },
    });
    const out = pretty(line);
    const lines = out.split("\n");
    expect(lines[0]).toMatch(/ERROR: job run failed/);
    expect(out).toContain("at run (jobs.ts:1:2)");
    expect(lines.length).toBeGreaterThan(2);
    expect(out.endsWith("\n")).toBe(false);
  });

  test.each([
    ["plain text", "Error: Cannot find module 'x'"],
    ["a stack frame", "    at Object.<anonymous> (/app/main.js:1:1)"],
    ["an empty line", ""],
    ["broken JSON", '{"level":30,"msg":"cut off'],
    ["JSON without a numeric level", '{"msg":"no level","level":"info"}'],
    ["a JSON array", "[1,2,3]"],
    ["a JSON number", "42"],
    ["nats-server's log", "[123] 2026/01/02 03:04:05.678901 [INF] Server is ready"],
  ])("%s passes through unchanged", (_, line) => {
    expect(pretty(line)).toBe(line);
  });

  test("with colours, the line carries ANSI escapes; without, none", () => {
    // eslint-disable-next-line no-control-regex -- an ANSI escape starts with ESC
    const ansi = /\u001b\[/;
    expect(prettyLogLines({ colorize: true })(READY)).toMatch(ansi);
    expect(pretty(READY)).not.toMatch(ansi);
  });
});

describe("log lines elsewhere", () => {
  test("not a terminal: JSON lines unchanged", () => {
    const format = logLinesFor({ isTTY: false } as NodeJS.WriteStream);
    expect(format(READY)).toBe(READY);
  });

  test("a terminal: human-readable", () => {
    const format = logLinesFor({ isTTY: true } as NodeJS.WriteStream);
    expect(format(READY)).toContain("INFO");
    expect(format(READY)).toContain("core ready");
    expect(format(READY)).not.toBe(READY);
  });
});
