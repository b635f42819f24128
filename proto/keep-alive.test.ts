import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { keepAliveOptions } from "./keep-alive.ts";

// A server announcing a 2 s keep-alive: an agent with keepAliveOptions must drop its idle socket a
// second before the server would close it, so no request is ever sent on a socket being closed.
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((_req, res) => res.end("ok"));
  server.keepAliveTimeout = 2_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function get(agent: http.Agent): Promise<{ reused: boolean; hint: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ reused: req.reusedSocket, hint: res.headers["keep-alive"] as string | undefined }));
    });
    req.on("error", reject);
  });
}

const freeSockets = (agent: http.Agent) => Object.values(agent.freeSockets).reduce((n, list) => n + (list?.length ?? 0), 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("an idle socket is closed a second before the server's keep-alive timeout, and reused before that", async () => {
  const agent = new http.Agent(keepAliveOptions(4, 60_000));
  try {
    const first = await get(agent);
    expect(first.hint).toBe("timeout=2");
    await sleep(300);
    expect((await get(agent)).reused).toBe(true);
    await sleep(1_400);
    // A plain `new http.Agent({ keepAlive: true })` still holds the socket here (checked below).
    expect(freeSockets(agent)).toBe(0);
    expect((await get(agent)).reused).toBe(false);
  } finally {
    agent.destroy();
  }
});

test("without a timeout of its own, Node's agent ignores the hint (why keepAliveOptions sets one)", async () => {
  const plain = new http.Agent({ keepAlive: true, maxSockets: 4 });
  try {
    await get(plain);
    await sleep(1_400);
    expect(freeSockets(plain)).toBe(1);
  } finally {
    plain.destroy();
  }
});
