#!/usr/bin/env node
// `paytami`, as `npm ci` links it into node_modules/.bin (the root package depends on this folder,
// "paytami-cli": "file:core/bin"). npx runs a name found there at once; a bin of the root package
// itself would first make npx read the whole node_modules tree, about half a second.
//
// Plain JavaScript, so that it starts fast and any Node can run it. It runs the CLI compiled into
// dist/ when that is at least as new as every source file, else the TypeScript entry (Node's type
// stripping: slower, always current; `npm run build` or `npm start` makes dist/ current again),
// with the pinned Node 24 from node_modules when the Node running it is older.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const self = fileURLToPath(import.meta.url);
const root = realpathSync(join(dirname(self), "..", ".."));
// What tsconfig.build.json compiles into dist/.
const SOURCE_DIRS = ["core/src", "dispatcher/src", "facade/src", "proto"];

// npx and npm scripts name the project they run in. When its node_modules is linked from another
// checkout (a git worktree sharing one install), this file is that other checkout's: hand over to
// the project's own launcher, which runs the project's own CLI.
const project = process.env.npm_config_local_prefix;
const projectLauncher = project ? join(project, "core", "bin", "paytami.mjs") : undefined;
if (projectLauncher && existsSync(projectLauncher) && realpathSync(project) !== root) {
  await import(pathToFileURL(projectLauncher).href);
} else if (Number(process.versions.node.split(".")[0]) < 24 && existsSync(join(root, "node_modules", ".bin", "node"))) {
  rerun(join(root, "node_modules", ".bin", "node"));
} else {
  await import(pathToFileURL(cliEntry()).href);
}

function cliEntry() {
  const compiled = join(root, "dist", "core", "src", "cli", "paytami.js");
  const source = join(root, "core", "src", "cli", "paytami.ts");
  if (!existsSync(source)) return compiled;
  const built = statSync(compiled, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return source;
  return SOURCE_DIRS.some((dir) => hasNewerSource(join(root, dir), built)) ? source : compiled;
}

function hasNewerSource(dir, than) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() ? hasNewerSource(path, than) : isSource(entry.name) && (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) > than)
      return true;
  }
  return false;
}

function isSource(name) {
  return /\.tsx?$/.test(name) && !name.endsWith(".test.ts");
}

// The child is in our process group, so a Ctrl-C at the terminal reaches it directly (`listen` stops
// on it cleanly); we only wait for its exit, and pass on what is sent to us alone.
function rerun(node) {
  const child = spawn(node, [self, ...process.argv.slice(2)], { stdio: "inherit" });
  process.on("SIGINT", () => {});
  for (const signal of ["SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => {
    process.stderr.write(`paytami: internal_error: cannot run ${node}: ${error.message}\n`);
    process.exitCode = 1;
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exitCode = code ?? 1;
  });
}
