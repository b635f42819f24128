// A three-node nats-server cluster with JetStream on loopback (DESIGN §7), for `npm run cluster` and
// the tests that kill a server: each node has its own client port, route port and store directory,
// so a node restarted with the same arguments rejoins as itself and catches up from its peers.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { EVENT_STREAM } from "../../../proto/event-stream.ts";
import { freePort } from "./free-port.ts";
import { startChild, type Child } from "./processes.ts";
import { findExecutable } from "./system-packages.ts";

export interface NatsCluster {
  /** NATS_URL naming every node, comma-separated. */
  url: string;
  names: string[];
  /** The client port of a node. */
  port(name: string): number;
  /** The process of a running node, undefined while it is stopped. */
  child(name: string): Child | undefined;
  /** SIGKILL of the node named `name`. */
  kill(name: string): Promise<void>;
  /** Starts a killed node again, same ports and store. */
  restart(name: string): Promise<void>;
  /** The node leading the event stream (its JetStream leader), undefined when none answers. */
  streamLeader(): Promise<string | undefined>;
  stop(): Promise<void>;
}

interface Node {
  name: string;
  port: number;
  routePort: number;
  store: string;
  child?: Child | undefined;
}

const READY_MS = 30_000;

/** `home`: where the stores and logs go (emptied first); a fresh temporary directory when absent (removed by stop()). */
export async function startNatsCluster(size = 3, options: { home?: string } = {}): Promise<NatsCluster> {
  const bin = findExecutable("nats-server", ["/usr/bin", "/usr/sbin", "/usr/local/bin"]);
  if (!bin) throw new Error("nats-server not found");
  let home: string;
  if (options.home) {
    fs.rmSync(options.home, { recursive: true, force: true });
    fs.mkdirSync(options.home, { recursive: true, mode: 0o700 });
    home = options.home;
  } else home = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-nats-cluster-"));
  const nodes: Node[] = [];
  for (let i = 1; i <= size; i++) nodes.push({ name: `n${i}`, port: await freePort(), routePort: await freePort(), store: path.join(home, `n${i}`) });
  const url = nodes.map((n) => `nats://127.0.0.1:${n.port}`).join(",");

  const start = (node: Node) => {
    const routes = nodes
      .filter((n) => n !== node)
      .map((n) => `nats://127.0.0.1:${n.routePort}`)
      .join(",");
    const args = ["-js", "-sd", node.store, "-a", "127.0.0.1", "-p", String(node.port), "-n", node.name];
    args.push("--cluster_name", "paytami", "--cluster", `nats://127.0.0.1:${node.routePort}`, "--routes", routes);
    node.child = startChild(`nats-${node.name}`, bin, args, { output: { logFile: path.join(home, `${node.name}.log`) } });
  };
  // Ready when JetStream answers through this node: the cluster has a meta leader.
  const jetStreamAnswers = async (node: Node): Promise<boolean> => {
    const nc = await connect({ servers: `nats://127.0.0.1:${node.port}`, reconnect: false, timeout: 1_000 }).catch(() => undefined);
    if (!nc) return false;
    try {
      return Boolean(await (await jetstreamManager(nc)).getAccountInfo());
    } catch {
      return false; // no meta leader yet
    } finally {
      await nc.close();
    }
  };
  const ready = async (node: Node) => {
    const deadline = Date.now() + READY_MS;
    while (!(await jetStreamAnswers(node))) {
      if (node.child?.hasExited()) throw new Error(`nats-server ${node.name} exited (log: ${path.join(home, `${node.name}.log`)})`);
      if (Date.now() > deadline) throw new Error(`nats-server ${node.name} with JetStream did not answer within ${READY_MS} ms`);
      await sleep(200);
    }
  };
  const stopAll = async () => {
    await Promise.all(nodes.map(async (n) => n.child && (await n.child.stop(5_000))));
    if (!options.home) fs.rmSync(home, { recursive: true, force: true });
  };
  nodes.forEach(start);
  // A cluster that never forms is not left running (the caller gets no handle to stop it).
  await Promise.all(nodes.map(ready)).catch(async (error: unknown) => {
    await stopAll();
    throw error;
  });

  const node = (name: string) => {
    const found = nodes.find((n) => n.name === name);
    if (!found) throw new Error(`no NATS node ${name} (nodes: ${nodes.map((n) => n.name).join(", ")})`);
    return found;
  };
  return {
    url,
    names: nodes.map((n) => n.name),
    port: (name) => node(name).port,
    child: (name) => (node(name).child?.hasExited() ? undefined : node(name).child),
    kill: async (name) => {
      const n = node(name);
      n.child?.process.kill("SIGKILL");
      await n.child?.exited;
      n.child = undefined;
    },
    restart: async (name) => {
      const n = node(name);
      if (n.child && !n.child.hasExited()) return;
      start(n);
      await ready(n);
    },
    streamLeader: async () => {
      const nc = await connect({ servers: url.split(","), timeout: 2_000, reconnect: false }).catch(() => undefined);
      if (!nc) return undefined;
      try {
        return (await (await jetstreamManager(nc)).streams.info(EVENT_STREAM)).cluster?.leader;
      } catch {
        return undefined;
      } finally {
        await nc.close();
      }
    },
    stop: stopAll,
  };
}
