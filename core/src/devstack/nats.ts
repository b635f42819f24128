// A private nats-server with JetStream under $PAYTAMI_HOME/nats (store, log, pid file), listening
// on loopback only.
import { mkdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { savedOrFreePort } from "./free-port.ts";
import { isProcessAlive, livePidFromFile, startChild, waitUntilReady, type Child } from "./processes.ts";
import { say, SetupError } from "./report.ts";
import { aptInstall, findExecutable } from "./system-packages.ts";

export interface NatsHandle {
  url: string;
  child: Child;
  stop(): Promise<void>;
}

const EXTRA_DIRS = ["/usr/bin", "/usr/sbin", "/usr/local/bin"];

async function ensureNatsServer(home: string): Promise<string> {
  const found = findExecutable("nats-server", EXTRA_DIRS);
  if (found) return found;
  await aptInstall(["nats-server"], "nats-server", "install nats-server >= 2.9 (e.g. `sudo apt-get install nats-server`) or set NATS_URL", home);
  const installed = findExecutable("nats-server", EXTRA_DIRS);
  if (!installed) throw new SetupError("installed nats-server but still cannot find it on PATH");
  return installed;
}

// A server left behind by a run that was killed hard still holds the JetStream store lock.
async function stopLeftover(pidFile: string, storeDir: string): Promise<void> {
  const pid = livePidFromFile(pidFile, ["nats-server", storeDir]);
  if (pid === null) return;
  say(`stopping a nats-server left running by an earlier run (pid ${pid})`);
  process.kill(pid, "SIGTERM");
  for (let i = 0; i < 100 && isProcessAlive(pid); i++) await sleep(100);
  if (isProcessAlive(pid)) process.kill(pid, "SIGKILL");
}

// Ready = accepts a TCP connection and its INFO line says JetStream is on.
function probe(port: number): Promise<true | string> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    let buffer = "";
    const finish = (answer: true | string) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(2_000, () => finish("no INFO within 2 s"));
    socket.on("error", (error) => finish(error.message));
    socket.on("data", (chunk) => {
      buffer += chunk.toString();
      if (buffer.includes("\r\n")) finish((buffer.startsWith("INFO ") && buffer.includes('"jetstream":true')) || "INFO without JetStream");
    });
  });
}

export async function startNats(home: string): Promise<NatsHandle> {
  const bin = await ensureNatsServer(home);
  const dir = join(home, "nats");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pidFile = join(dir, "nats.pid");
  const portFile = join(dir, "port");
  const logFile = join(dir, "nats.log");
  await stopLeftover(pidFile, dir);

  const port = await savedOrFreePort(portFile);
  // -sd: JetStream keeps its streams in $PAYTAMI_HOME/nats/jetstream.
  const child = startChild("nats", bin, ["-js", "-sd", dir, "-a", "127.0.0.1", "-p", String(port), "-P", pidFile], {
    output: { logFile },
  });
  try {
    await waitUntilReady(`nats-server on port ${port} (log: ${logFile})`, child, 30_000, () => probe(port));
  } catch (error) {
    await child.stop(5_000);
    throw error;
  }
  writeFileSync(portFile, `${port}\n`);
  return {
    url: `nats://127.0.0.1:${port}`,
    child,
    async stop() {
      await child.stop();
    },
  };
}
