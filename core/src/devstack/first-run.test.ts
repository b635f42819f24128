// A first run says what it is doing in a few lines; installers' output goes to
// $PAYTAMI_HOME/install.log and reaches the terminal only as the tail of a failed step.
// Real processes with stand-ins for npm and apt-get on PATH (no network, nothing installed).
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { aptInstall, isRoot } from "./system-packages.ts";

const scratch = mkdtempSync(join(tmpdir(), "paytami-first-run-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const NOISE = Array.from({ length: 30 }, (_, i) => `npm warn EBADENGINE Unsupported engine ${i}`).join("\n");

function executable(path: string, text: string): void {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

// A clone without node_modules: launch.mjs alone at its place in the tree, and a fake `npm` whose
// `ci` fails with a usage dump (as with a lock file a mirror cannot satisfy) and whose `install`
// either fails or "installs" a node that just reports how it was called.
function freshClone(installFails: boolean): { root: string; bin: string } {
  const root = mkdtempSync(join(scratch, "clone-"));
  mkdirSync(join(root, "core", "src", "devstack"), { recursive: true });
  copyFileSync(join(import.meta.dirname, "launch.mjs"), join(root, "core", "src", "devstack", "launch.mjs"));
  const bin = join(root, "fake-bin");
  mkdirSync(bin);
  executable(
    join(bin, "npm"),
    `#!/bin/sh
cat <<'NOISE'
${NOISE}
NOISE
if [ "$1" = ci ]; then echo "npm error usage: npm ci [--install-strategy <hoisted|nested|shallow|linked>]" >&2; exit 1; fi
${
  installFails
    ? 'echo "npm error network request failed: ECONNREFUSED" >&2; exit 1'
    : `mkdir -p node_modules/.bin
printf '#!/bin/sh\\necho "entry ran: $*"\\n' > node_modules/.bin/node
chmod +x node_modules/.bin/node
echo "added 312 packages in 41s"`
}
`,
  );
  return { root, bin };
}

function launch(root: string, bin: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
  delete env.npm_execpath;
  delete env.PAYTAMI_HOME;
  return spawnSync(process.execPath, [join(root, "core", "src", "devstack", "launch.mjs"), "start"], { cwd: root, env, encoding: "utf8" });
}

describe("npm start on a fresh clone", () => {
  test("installing dependencies takes a few lines; npm's output is in .paytami/install.log", () => {
    const { root, bin } = freshClone(false);
    const run = launch(root, bin);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("paytami    | installing dependencies with npm ci (log: .paytami/install.log)…");
    expect(lines[1]).toBe("paytami    | npm ci failed; trying npm install…");
    expect(lines[2]).toMatch(/^paytami {4}\| dependencies installed \(\d+ s\)$/);
    expect(lines[3]).toMatch(/^entry ran: .*start\.ts$/);
    expect(lines).toHaveLength(4);
    expect(run.stderr).toBe("");
    const log = readFileSync(join(root, ".paytami", "install.log"), "utf8");
    expect(log).toContain("$ npm ci --no-audit --no-fund");
    expect(log).toContain("npm error usage: npm ci");
    expect(log).toContain("npm warn EBADENGINE Unsupported engine 29");
    expect(log).toContain("added 312 packages");
  });

  test("a failed install shows the last attempt's tail and where the whole log is", () => {
    const { root, bin } = freshClone(true);
    const run = launch(root, bin);
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain("EBADENGINE");
    const err = run.stderr.trimEnd().split("\n");
    expect(err.at(-1)).toBe("paytami    | installing dependencies failed (last lines above, full log: .paytami/install.log); fix the cause and run it again");
    expect(err.at(-2)).toBe("npm        | npm error network request failed: ECONNREFUSED");
    expect(err[0]).toMatch(/^npm {8}\| ===== .* \$ npm install --no-audit --no-fund$/);
    // Only the failed attempt's lines, bounded.
    expect(run.stderr).not.toContain("npm ci [--install-strategy");
    expect(err.length).toBeLessThanOrEqual(41);
  });

  test("a linked node_modules without Node 24 (a shared install) is left alone, with a one-line instruction", () => {
    const { root, bin } = freshClone(false);
    const shared = mkdtempSync(join(scratch, "shared-modules-"));
    symlinkSync(shared, join(root, "node_modules"));
    const run = launch(root, bin);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `paytami    | node_modules links to ${shared}, which has no node_modules/.bin/node; install dependencies there and run this again\n`,
    );
    expect(existsSync(join(root, ".paytami", "install.log")), "npm was not run").toBe(false);
  });
});

// apt-get runs only as root; CI (.ci/run) runs as root.
describe.skipIf(!isRoot())("missing server binaries", () => {
  function fakeAptGet(failInstall: boolean): { bin: string; calls: string } {
    const bin = mkdtempSync(join(scratch, "apt-"));
    const calls = join(bin, "calls");
    executable(
      join(bin, "apt-get"),
      `#!/bin/sh
echo "$*" >> ${calls}
echo "Reading package lists... Done"
echo "Get:1 http://deb.debian.org/debian bookworm/main amd64 libpq5 [190 kB]"
${failInstall ? 'if [ "$1" = install ]; then echo "E: Unable to locate package $4" >&2; exit 100; fi' : ""}
echo "Setting up $*"
`,
    );
    return { bin, calls };
  }

  async function withPath<T>(bin: string, run: () => Promise<T>): Promise<T> {
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      return await run();
    } finally {
      process.env.PATH = path;
    }
  }

  function captureOutput(): { text: () => string; restore: () => void } {
    let text = "";
    const out = process.stdout.write.bind(process.stdout);
    const err = process.stderr.write.bind(process.stderr);
    process.stdout.write = (chunk: string) => ((text += chunk), true);
    process.stderr.write = (chunk: string) => ((text += chunk), true);
    return { text: () => text, restore: () => ((process.stdout.write = out), (process.stderr.write = err)) };
  }

  test("what PostgreSQL and NATS ask for at once is one apt-get run, two lines on the terminal, output in install.log", async () => {
    const home = mkdtempSync(join(scratch, "home-"));
    const { bin, calls } = fakeAptGet(false);
    const output = captureOutput();
    const results = await withPath(bin, () =>
      Promise.allSettled([aptInstall(["postgresql"], "PostgreSQL", "hint pg", home), aptInstall(["nats-server"], "nats-server", "hint nats", home)]),
    ).finally(output.restore);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(
      readFileSync(calls, "utf8")
        .trim()
        .split("\n")
        .filter((l) => l.startsWith("install")),
    ).toEqual(["install -y --no-install-recommends postgresql nats-server"]);
    const lines = output.text().trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      `paytami    | PostgreSQL and nats-server not found; installing postgresql, nats-server with apt-get (log: ${join(home, "install.log")})…`,
    );
    expect(lines[1]).toMatch(/^paytami {4}\| installed postgresql, nats-server \(\d+ s\)$/);
    expect(readFileSync(join(home, "install.log"), "utf8")).toContain("Setting up install -y --no-install-recommends postgresql nats-server");
  });

  test("a failed apt-get shows its tail and each caller's own hint", async () => {
    const home = mkdtempSync(join(scratch, "home-"));
    const { bin } = fakeAptGet(true);
    const output = captureOutput();
    const result = await withPath(bin, () =>
      aptInstall(["nats-server"], "nats-server", "install nats-server or set NATS_URL", home).then(
        () => "installed",
        (error: Error) => error.message,
      ),
    ).finally(output.restore);
    expect(result).toBe(
      `apt-get install nats-server failed (exit 100; last lines above, full log: ${join(home, "install.log")}); install nats-server or set NATS_URL`,
    );
    expect(output.text()).toContain("apt-get    | E: Unable to locate package nats-server");
    expect(output.text()).not.toContain("apt-get    | Setting up update"); // only the last command's lines
  });
});
