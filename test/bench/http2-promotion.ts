// Why the facade's old generation fills under load (test/bench/HISTORY.md, "Session 34"), measured
// apart from Paytami. A client process sends POSTs at concurrency 32 to a server process that answers
// each after 5 ms, once over HTTP/1.1 keep-alive and once over one HTTP/2 session (what grpc-js
// uses), each request holding ~20 KB of its own state until its answer; and, for comparison, the
// same state held by a 5 ms timer with no I/O at all ("timer"). The client runs with
// --trace-gc-nvp; the report is, per protocol, the requests, the scavenges, the bytes the scavenges
// promoted to the old generation per request, and the mark-compacts those bytes caused.
//
// Alone: `node test/bench/http2-promotion.ts` (BENCH_SECONDS, default 5; BENCH_SEMI_SPACE_MB, default
// 8 as the facade's). No database or NATS: only node:http, node:http2 and V8.

import { fork } from "node:child_process";
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { keepAliveAgent } from "../support/keep-alive-agent.ts";

type Protocol = "http/1.1" | "http/2" | "timer";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SEMI_SPACE_MB = Number(process.env.BENCH_SEMI_SPACE_MB ?? 8);
const CONCURRENCY = 32;
const ANSWER_AFTER_MS = 5;
const self = new URL(import.meta.url).pathname;

function serve(protocol: Protocol): void {
  const answer = (end: () => void) => setTimeout(end, ANSWER_AFTER_MS);
  const server =
    protocol === "http/2"
      ? http2.createServer().on("stream", (stream) => {
          stream.on("data", () => undefined);
          stream.on("end", () => answer(() => (stream.respond({ ":status": 200 }), stream.end(Buffer.alloc(700, 1)))));
        })
      : http.createServer((req, res) => {
          req.on("data", () => undefined);
          req.on("end", () => answer(() => res.end(Buffer.alloc(700, 1))));
        });
  server.listen(0, "127.0.0.1", () => process.send!((server.address() as AddressInfo).port));
}

/** How a request goes out and is answered (`done` once it is), and what to close after the load. */
function transport(protocol: Protocol, port: number): { send: (done: () => void) => void; close: () => void } {
  const body = Buffer.alloc(800, 2);
  if (protocol === "timer") return { send: (done) => setTimeout(done, ANSWER_AFTER_MS), close: () => undefined };
  if (protocol === "http/2") {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    return {
      send: (done) =>
        session
          .request({ ":method": "POST", ":path": "/" })
          .on("data", () => undefined)
          .on("close", done)
          .end(body),
      close: () => session.close(),
    };
  }
  const agent = keepAliveAgent(CONCURRENCY);
  return {
    send: (done) =>
      http.request({ host: "127.0.0.1", port, method: "POST", path: "/", agent }, (res) => res.on("data", () => undefined).on("end", done)).end(body),
    close: () => agent.destroy(),
  };
}

async function load(protocol: Protocol, port: number): Promise<void> {
  const { send, close } = transport(protocol, port);
  const one = () =>
    new Promise<void>((resolve) => {
      // A request's own state (a parsed body, a context), alive until its answer, as in a facade route.
      const state = Array.from({ length: 400 }, (_, i) => ({ i, field: `value ${i}` }));
      send(() => (state.length > 0 ? resolve() : undefined));
    });
  let requests = 0;
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        await one();
        requests++;
      }
    }),
  );
  process.stdout.write(`requests=${requests}\n`);
  close();
}

interface Result {
  protocol: Protocol;
  requests: number;
  scavenges: number;
  promotedBytes: number;
  markCompacts: number;
}

/** One protocol: its server (none for the timer), then a client under --trace-gc-nvp, whose output is read. */
async function measure(protocol: Protocol): Promise<Result> {
  const server = protocol === "timer" ? undefined : fork(self, ["server", protocol], { execArgv: [] });
  try {
    const port = server ? await new Promise<number>((resolve) => server.once("message", (m) => resolve(m as number))) : 0;
    const client = fork(self, ["client", protocol, String(port)], {
      execArgv: [`--max-semi-space-size=${SEMI_SPACE_MB}`, "--trace-gc-nvp"],
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    });
    let out = "";
    client.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolve) => client.once("exit", resolve));
    const lines = out.split("\n");
    const field = (line: string, name: string) => Number(new RegExp(`\\b${name}=(\\d+)`).exec(line)?.[1] ?? 0);
    const scavenges = lines.filter((l) => / gc=s /.test(l));
    return {
      protocol,
      requests: Number(/^requests=(\d+)/m.exec(out)?.[1] ?? 0),
      scavenges: scavenges.length,
      promotedBytes: scavenges.reduce((sum, l) => sum + field(l, "promoted"), 0),
      markCompacts: lines.filter((l) => / gc=(mc|ms) /.test(l)).length,
    };
  } finally {
    server?.kill();
  }
}

const [role, protocol, port] = process.argv.slice(2) as [string | undefined, Protocol, string];
if (role === "server") serve(protocol);
else if (role === "client") await load(protocol, Number(port));
else {
  const results: Result[] = [];
  for (const p of ["timer", "http/1.1", "http/2"] as const) results.push(await measure(p));
  console.log(
    `Node ${process.version}, ${CONCURRENCY} requests in flight, each answered after ${ANSWER_AFTER_MS} ms and holding ~20 KB until then; ${SECONDS} s per protocol, semi-space ${SEMI_SPACE_MB} MB:\n`,
  );
  console.log("| Protocol | Requests | Scavenges | Promoted per request | Mark-compacts |");
  console.log("|---|---:|---:|---:|---:|");
  for (const r of results)
    console.log(`| ${r.protocol} | ${r.requests} | ${r.scavenges} | ${(r.promotedBytes / Math.max(1, r.requests) / 1024).toFixed(1)} KB | ${r.markCompacts} |`);
}
