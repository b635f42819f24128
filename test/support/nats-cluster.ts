// A three-node nats-server cluster with JetStream on loopback (DESIGN §7), for tests that kill a
// server: each node has its own client port, route port and store directory, so a node restarted
// with the same arguments rejoins as itself and catches up from its peers.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { freePort } from "../../core/src/devstack/free-port.ts";
import { startChild, type Child } from "../../core/src/devstack/processes.ts";
import { findExecutable } from "../../core/src/devstack/system-packages.ts";
import { eventually } from "./eventually.ts";

export interface NatsCluster {
  /** NATS_URL naming every node, comma-separated. */
  url: string;
  names: string[];
  /** SIGKILL of the node named `name`. */
  kill(name: string): Promise<void>;
  /** Starts a killed node again, same ports and store. */
  restart(name: string): Promise<void>;
  stop(): Promise<void>;
}

interface Node {
  name: string;
  port: number;
  routePort: number;
  store: string;
  child?: Child | undefined;
}

export async function startNatsCluster(size = 3): Promise<NatsCluster> {
  const bin = findExecutable("nats-server", ["/usr/bin", "/usr/sbin", "/usr/local/bin"]);
  if (!bin) throw new Error("nats-server not found");
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-nats-cluster-"));
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
  const ready = (node: Node) =>
    eventually(
      async () => {
        const nc = await connect({ servers: `nats://127.0.0.1:${node.port}`, reconnect: false, timeout: 1_000 }).catch(() => undefined);
        if (!nc) return undefined;
        try {
          return (await (await jetstreamManager(nc)).getAccountInfo()) ? true : undefined;
        } catch {
          return undefined; // no meta leader yet
        } finally {
          await nc.close();
        }
      },
      30_000,
      `nats-server ${node.name} with JetStream`,
      200,
    );
  const stopAll = async () => {
    await Promise.all(nodes.map(async (n) => n.child && (await n.child.stop(5_000))));
    fs.rmSync(home, { recursive: true, force: true });
  };
  nodes.forEach(start);
  // A cluster that never forms is not left running (the caller gets no handle to stop it).
  await Promise.all(nodes.map(ready)).catch(async (error: unknown) => {
    await stopAll();
    throw error;
  });

  const node = (name: string) => nodes.find((n) => n.name === name)!;
  return {
    url,
    names: nodes.map((n) => n.name),
    kill: async (name) => {
      const n = node(name);
      n.child?.process.kill("SIGKILL");
      await n.child?.exited;
      n.child = undefined;
    },
    restart: async (name) => {
      start(node(name));
      await ready(node(name));
    },
    stop: stopAll,
  };
}
