// Entry of `npm start` and `npm test`. Plain JavaScript on purpose: npm may run it with an older
// system Node (e.g. 20) that cannot execute TypeScript. On a fresh clone it installs dependencies
// (`npm ci`, quietly: details in $PAYTAMI_HOME/install.log), which brings the pinned Node 24, and
// then re-runs the real TypeScript entry with it, passing arguments, stdio, signals and the exit
// code through.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { delimiter, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");
const entries = { start: "start.ts", test: "test.ts", cluster: "cluster.ts" };

const [command, ...args] = process.argv.slice(2);
const entry = entries[command];
if (!entry) {
  console.error(`usage: node core/src/devstack/launch.mjs ${Object.keys(entries).join("|")} [args...]`);
  process.exit(2);
}

const node24 = join(root, "node_modules", ".bin", "node");
if (!existsSync(node24)) {
  const modules = join(root, "node_modules");
  // A linked node_modules is an install shared with other checkouts (git worktrees): npm ci would
  // delete it under every process using it, and in the middle of someone else's install we would
  // start a second one. Only our own (or none yet) is ours to install.
  if (lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink()) {
    console.error(
      `paytami    | node_modules links to ${realpathOr(modules)}, which has no node_modules/.bin/node; install dependencies there and run this again`,
    );
    process.exit(1);
  }
  installDependencies();
}

function realpathOr(path) {
  try {
    return realpathSync(path);
  } catch {
    return readlinkSync(path);
  }
}

// A fresh clone: `npm ci` (falling back to `npm install`), its output (usage dumps, engine warnings
// from the older Node running us) in $PAYTAMI_HOME/install.log, and only its tail on the terminal
// when it fails.
function installDependencies() {
  const home = resolve(process.env.PAYTAMI_HOME || ".paytami");
  // 0755 like start.ts: when we run as root the cluster's unprivileged user must traverse it.
  mkdirSync(home, { recursive: true, mode: 0o755 });
  const log = join(home, "install.log");
  const shown = relative(process.cwd(), log).startsWith("..") ? log : relative(process.cwd(), log);
  const say = (message) => console.log(`paytami    | ${message}`);
  // Under `npm start` npm tells us which npm it is; otherwise use the one on PATH.
  const npmCli = process.env.npm_execpath;
  const npm = (...npmArgs) => {
    appendFileSync(log, `\n===== ${new Date().toISOString()} $ npm ${npmArgs.join(" ")}\n`);
    const fd = openSync(log, "a");
    let result;
    try {
      const stdio = ["ignore", fd, fd];
      result =
        npmCli && npmCli.endsWith(".js")
          ? spawnSync(process.execPath, [npmCli, ...npmArgs], { cwd: root, stdio })
          : spawnSync("npm", npmArgs, { cwd: root, stdio });
    } finally {
      closeSync(fd);
    }
    if (result.error) appendFileSync(log, `cannot run npm: ${result.error.message}\n`);
    return result;
  };
  const started = Date.now();
  say(`installing dependencies with npm ci (log: ${shown})…`);
  let install = npm("ci", "--no-audit", "--no-fund");
  if (install.status !== 0) {
    // npm ci rejects lock files without other platforms' optional packages (which some registry
    // mirrors do not serve); npm install resolves the same locked versions.
    say("npm ci failed; trying npm install…");
    install = npm("install", "--no-audit", "--no-fund");
  }
  if (install.status !== 0 || !existsSync(node24)) {
    // The last attempt's output, at most 40 lines.
    const text = readFileSync(log, "utf8");
    const lines = text
      .slice(text.lastIndexOf("\n===== ") + 1)
      .trimEnd()
      .split("\n")
      .slice(-40);
    for (const line of lines) console.error(`npm        | ${line}`);
    console.error(`paytami    | installing dependencies failed (last lines above, full log: ${shown}); fix the cause and run it again`);
    process.exit(install.status || 1);
  }
  say(`dependencies installed (${Math.round((Date.now() - started) / 1000)} s)`);
}

const child = spawn(node24, [join(here, entry), ...args], {
  stdio: "inherit",
  env: { ...process.env, PATH: [join(root, "node_modules", ".bin"), process.env.PATH ?? ""].join(delimiter) },
});

const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
const forward = (signal) => child.kill(signal);
for (const signal of forwarded) process.on(signal, forward);

// npm runs us through `sh -c`, and sh dies on the SIGTERM npm forwards without passing it on; we
// would be orphaned with every server still running. Losing our parent therefore means "stop".
const parent = process.ppid;
const parentWatch = setInterval(() => {
  if (process.ppid !== parent) {
    clearInterval(parentWatch);
    child.kill("SIGTERM");
  }
}, 500);

child.on("error", (error) => {
  console.error(`paytami    | cannot run ${node24}: ${error.message}`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  clearInterval(parentWatch);
  if (signal) {
    // Die the same way so our parent sees the real cause.
    for (const name of forwarded) process.off(name, forward);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
