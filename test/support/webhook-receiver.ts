// A real HTTP webhook receiver on a loopback port for the delivery tests: records every request
// (raw body bytes, headers, arrival time) and answers as the test scripts it — a status, a
// Retry-After, a redirect, or no answer at all (hang). It can go down and come back on the same port.
import { once } from "node:events";
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  /** 1 for the first request this receiver got. */
  n: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  at: number;
  /** The event id of the JSON body (or undefined if it is not an envelope). */
  eventId: string | undefined;
}

/** `body` as bytes is written as is (a receiver sending invalid UTF-8); `delayMs` holds the answer back that long. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string | Buffer; delayMs?: number } | "hang";

/** How to answer a request: by default 200. */
export type Behaviour = (request: ReceivedRequest) => Answer;

export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  behaviour: Behaviour;
  #server: http.Server | undefined;
  #port = 0;
  /** Requests answered "hang" whose connection is still open. */
  #hanging = new Set<http.ServerResponse>();
  /** The most requests that were hanging at the same time. */
  maxHanging = 0;
  #waiters: Array<() => void> = [];
  /** When each event id first arrived (a redelivery does not move it). */
  readonly #firstArrivals = new Map<string, number>();

  constructor(behaviour: Behaviour = () => ({ status: 200, body: "ok" })) {
    this.behaviour = behaviour;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}/hooks`;
  }

  get hangingNow(): number {
    return this.#hanging.size;
  }

  async start(): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        let eventId: string | undefined;
        try {
          eventId = (JSON.parse(body.toString()) as { id?: string }).id;
        } catch {
          eventId = undefined;
        }
        const request: ReceivedRequest = {
          n: this.requests.length + 1,
          method: req.method ?? "",
          path: req.url ?? "",
          headers: req.headers,
          body,
          at: Date.now(),
          eventId,
        };
        this.requests.push(request);
        if (eventId !== undefined && !this.#firstArrivals.has(eventId)) this.#firstArrivals.set(eventId, request.at);
        for (const wake of this.#waiters.splice(0)) wake();
        const answer = this.behaviour(request);
        if (answer === "hang") {
          this.#hanging.add(res);
          this.maxHanging = Math.max(this.maxHanging, this.#hanging.size);
          res.on("close", () => this.#hanging.delete(res));
          return;
        }
        const write = () => {
          res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
          res.end(answer.body ?? "");
        };
        if (answer.delayMs) setTimeout(write, answer.delayMs);
        else write();
      });
    });
    server.keepAliveTimeout = 5_000;
    server.listen(this.#port, "127.0.0.1");
    await once(server, "listening");
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
    return this;
  }

  /** Goes down: new connections are refused until start() again (same port). */
  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    for (const res of this.#hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Requests carrying `eventId`. */
  for(eventId: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.eventId === eventId);
  }

  /** When each event id first arrived (ms since the epoch). */
  get firstArrivals(): ReadonlyMap<string, number> {
    return this.#firstArrivals;
  }

  /** Waits until every one of `eventIds` has arrived at least once. */
  waitForEvents(eventIds: Iterable<string>, timeoutMs = 30_000, what = "every event"): Promise<void> {
    const ids = [...eventIds];
    return this.waitFor(() => ids.every((id) => this.#firstArrivals.has(id)), timeoutMs, what);
  }

  /** Waits until `predicate` holds over the requests (checked on every request and every 100 ms). */
  async waitFor(predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs = 30_000, what = "the expected requests"): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.requests)) {
      if (Date.now() > deadline) throw new Error(`receiver ${this.url}: timed out waiting for ${what} (got ${this.requests.length} request(s))`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}
