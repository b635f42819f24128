// How `paytami` starts (core/bin/paytami.mjs, what `npx paytami` runs): the compiled CLI in dist/ when
// it is current, else the TypeScript entry; arguments, output and exit code passed through; the
// project npx names; and `--help` loading no command module and no gRPC client. Real processes: the
// real launcher in scratch trees with stand-in entries, then the real CLI (dist/ is built by the
// suite's global setup).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../core/src/devstack/services.ts";
import { nodeBinary } from "./support/stack.ts";

const LAUNCHER = "core/bin/paytami.mjs";
const COMPILED = "dist/core/src/cli/paytami.js";
const SOURCE = "core/src/cli/paytami.ts";

const scratch = mkdtempSync(join(tmpdir(), "paytami-launcher-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(path: string, text: string, secondsAgo: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  const at = Date.now() / 1000 - secondsAgo;
  utimesSync(path, at, at);
}

// A checkout with the real launcher, and entries that say which one ran, with what, in which tree;
// the compiled one a minute old, the sources an hour old.
function checkout(): string {
  const root = mkdtempSync(join(scratch, "checkout-"));
  mkdirSync(join(root, "core", "bin"), { recursive: true });
  copyFileSync(join(REPO_ROOT, LAUNCHER), join(root, LAUNCHER));
  const entry = (name: string) =>
    `const args: string[] = process.argv.slice(2);\nconsole.log(${JSON.stringify(name)}, JSON.stringify(args), ${JSON.stringify(root)});\nprocess.exitCode = args.length;\n`;
  write(join(root, COMPILED), entry("compiled").replace(": string[]", ""), 60);
  write(join(root, SOURCE), entry("source"), 3600);
  write(join(root, "proto", "gen", "paytami", "v1", "payment.ts"), "export {};\n", 3600);
  write(join(root, "dispatcher", "src", "main.ts"), "export {};\n", 3600);
  return root;
}

function launch(root: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const base = { ...process.env };
  delete base.npm_config_local_prefix;
  return spawnSync(nodeBinary(), [join(root, LAUNCHER), ...args], { cwd: scratch, env: { ...base, ...env }, encoding: "utf8" });
}

describe("core/bin/paytami.mjs picks the entry", () => {
  test("the compiled CLI when dist/ is newer than every source, with the arguments, output and exit code passed through", () => {
    const root = checkout();
    const run = launch(root, ["keys", "--json"]);
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 2,
      stdout: `compiled ["keys","--json"] ${root}\n`,
      stderr: "",
    });
  });

  test("the TypeScript entry when a source file is newer than dist/ (an edit not yet built)", () => {
    const root = checkout();
    write(join(root, "proto", "gen", "paytami", "v1", "payment.ts"), "export {};\n", 0);
    expect(launch(root, ["--help"]).stdout).toBe(`source ["--help"] ${root}\n`);
  });

  test("the compiled CLI when only a test file is newer (tests are not compiled)", () => {
    const root = checkout();
    write(join(root, "dispatcher", "src", "main.test.ts"), "export {};\n", 0);
    expect(launch(root, []).stdout).toBe(`compiled [] ${root}\n`);
  });

  test("the TypeScript entry when dist/ was never built (a fresh clone after npm ci)", () => {
    const root = checkout();
    rmSync(join(root, "dist"), { recursive: true });
    const run = launch(root, ["--json", "nope"]);
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 2, stdout: `source ["--json","nope"] ${root}\n` });
  });

  test("the CLI of the project npx names, when node_modules (and so this launcher) is another checkout's", () => {
    const shared = checkout();
    const worktree = checkout();
    expect(launch(shared, ["--help"], { npm_config_local_prefix: worktree }).stdout).toBe(`compiled ["--help"] ${worktree}\n`);
    expect(launch(shared, ["--help"], { npm_config_local_prefix: shared }).stdout).toBe(`compiled ["--help"] ${shared}\n`);
    // A project that is not a Paytami checkout names nothing for us.
    expect(launch(shared, ["--help"], { npm_config_local_prefix: scratch }).stdout).toBe(`compiled ["--help"] ${shared}\n`);
  });
});

describe("the real CLI", () => {
  // Every module the process loads, in order, through a module hook in the process itself.
  function loadedModules(args: string[]): { stdout: string; modules: string[] } {
    const log = join(mkdtempSync(join(scratch, "loads-")), "modules.log");
    const hook = join(dirname(log), "hook.mjs");
    writeFileSync(
      hook,
      `import { registerHooks } from "node:module";\nimport { appendFileSync } from "node:fs";\n` +
        `registerHooks({ load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + "\\n"); return next(url, context); } });\n`,
    );
    const run = spawnSync(nodeBinary(), ["--import", pathToFileURL(hook).href, join(REPO_ROOT, LAUNCHER), ...args], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    return { stdout: run.stdout, modules: readFileSync(log, "utf8").trim().split("\n") };
  }
  const inRepo = (modules: string[], part: string) => modules.filter((url) => url.includes(part)).map((url) => url.slice(url.indexOf(part)));

  test("paytami --help runs the compiled CLI and loads no command module, no contract code and no gRPC client", () => {
    const { stdout, modules } = loadedModules(["--help"]);
    expect(stdout).toMatch(/^Usage: paytami \[options\] \[command\]\n/);
    expect(inRepo(modules, "/dist/").sort()).toEqual(["/dist/core/src/cli/command.js", "/dist/core/src/cli/paytami.js", "/dist/core/src/cli/program.js"]);
    expect(modules.filter((url) => url.includes("/node_modules/")).map((url) => url.replace(/.*\/node_modules\/((@[^/]+\/)?[^/]+).*/, "$1"))).not.toContain(
      "@grpc/grpc-js",
    );
  });

  test("paytami keys --help loads the keys module alone, and no connection", () => {
    const { stdout, modules } = loadedModules(["keys", "--help"]);
    expect(stdout).toMatch(/^Usage: paytami keys \[options\] \[command\]\n/);
    const commands = inRepo(modules, "/dist/core/src/cli/").sort();
    expect(commands).toEqual(["/dist/core/src/cli/command.js", "/dist/core/src/cli/keys.js", "/dist/core/src/cli/paytami.js", "/dist/core/src/cli/program.js"]);
  });

  test.each([
    [["--help"]],
    [["help", "simulate", "payment"]],
    [["webhooks", "create", "--help"]],
    [[]],
    [["nope"]],
    [["--json", "keys", "create"]],
    [["simulate", "payment", "pay_1", "bogus"]],
  ])("the compiled CLI and the TypeScript entry answer %j with the same bytes", (args) => {
    const env = { ...process.env, CORE_GRPC_ADDR: "127.0.0.1:9", PAYTAMI_HOME: scratch };
    const runs = [COMPILED, SOURCE].map((entry) => spawnSync(nodeBinary(), [join(REPO_ROOT, entry), ...args], { cwd: REPO_ROOT, env, encoding: "utf8" }));
    const [compiled, source] = runs.map((run) => ({ status: run.status, stdout: run.stdout, stderr: run.stderr }));
    expect(compiled).toEqual(source);
  });
});
