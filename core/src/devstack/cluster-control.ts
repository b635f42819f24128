// How `npm run cluster -- <command>` in another terminal reaches the running cluster: the cluster
// serves its operations on a loopback port named, with a bearer token, in
// $PAYTAMI_HOME/cluster/control.json (mode 0600, removed when the cluster stops).
import { randomBytes, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Cluster } from "./cluster-stack.ts";

interface ControlFile {
  pid: number;
  url: string;
  token: string;
}

const controlPath = (home: string) => join(home, "cluster", "control.json");

type Operation = (cluster: Cluster, arg: string) => Promise<unknown>;

const OPERATIONS: Record<string, Operation> = {
  status: (cluster) => cluster.status(),
  "failover-db": (cluster) => cluster.failoverDb(),
  "kill-nats": (cluster, arg) => cluster.killNats(Number(arg)),
  "restart-nats": (cluster, arg) => cluster.restartNats(Number(arg)),
  stop: (cluster, arg) => cluster.stopService(arg, "SIGTERM"),
  kill: (cluster, arg) => cluster.stopService(arg, "SIGKILL"),
  start: (cluster, arg) => cluster.startService(arg),
};

export const CONTROL_COMMANDS = Object.keys(OPERATIONS);

/** Serves `cluster`'s operations until the returned function closes it. */
export async function serveControl(home: string, cluster: Cluster): Promise<() => Promise<void>> {
  const token = randomBytes(24).toString("base64url");
  const expected = Buffer.from(`Bearer ${token}`);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const given = Buffer.from(req.headers.authorization ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return answer(401, { error: "unauthorized" });
    const [, name = "", arg = ""] = (req.url ?? "").split("/").map(decodeURIComponent);
    const operation = OPERATIONS[name];
    if (req.method !== "POST" || !operation) return answer(404, { error: `unknown command ${name}` });
    operation(cluster, arg).then(
      (result) => answer(200, result),
      (error: unknown) => answer(409, { error: error instanceof Error ? error.message : String(error) }),
    );
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const file: ControlFile = { pid: process.pid, url: `http://127.0.0.1:${port}`, token };
  writeFileSync(controlPath(home), `${JSON.stringify(file)}\n`, { mode: 0o600 });
  return async () => {
    rmSync(controlPath(home), { force: true });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}

/** Runs one operation on the cluster running under `home`; throws with its message when refused. */
export async function callControl(home: string, command: string, arg = ""): Promise<unknown> {
  let file: ControlFile;
  try {
    file = JSON.parse(readFileSync(controlPath(home), "utf8")) as ControlFile;
  } catch {
    throw new Error(`no cluster is running under ${home} (start one with \`npm run cluster\`)`);
  }
  const path = arg ? `${command}/${encodeURIComponent(arg)}` : command;
  const response = await fetch(`${file.url}/${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${file.token}` },
    signal: AbortSignal.timeout(120_000),
  });
  const body = (await response.json()) as { error?: string };
  if (response.status !== 200) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}
