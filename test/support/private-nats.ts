// A nats-server of one test file's own, for the files that stop and start it (the suite's shared
// one must stay up for every other file): JetStream on, the same port and store at every start.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { connect } from "@nats-io/transport-node";
import { freePort } from "../../core/src/devstack/free-port.ts";
import { startChild, type Child } from "../../core/src/devstack/processes.ts";
import { findExecutable } from "../../core/src/devstack/system-packages.ts";

export interface PrivateNats {
  url: string;
  /** Starts it (again) and waits until it takes connections. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops it and removes its store. */
  dispose(): Promise<void>;
}

export async function privateNats(): Promise<PrivateNats> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-nats-"));
  const port = await freePort();
  const url = `nats://127.0.0.1:${port}`;
  let child: Child | undefined;
  const nats: PrivateNats = {
    url,
    async start() {
      const bin = findExecutable("nats-server", ["/usr/bin", "/usr/sbin", "/usr/local/bin"]);
      if (!bin) throw new Error("nats-server not found");
      child = startChild("nats", bin, ["-js", "-sd", home, "-a", "127.0.0.1", "-p", String(port)], { output: { logFile: path.join(home, "nats.log") } });
      const nc = await connect({ servers: url, maxReconnectAttempts: 100, reconnectTimeWait: 100, waitOnFirstConnect: true });
      await nc.close();
    },
    async stop() {
      await child?.stop();
      child = undefined;
    },
    async dispose() {
      await nats.stop();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
  await nats.start();
  return nats;
}
