import * as http from "node:http";

/**
 * Set on every keep-alive agent of the suites and benchmarks. It only has to exist, and differ from
 * any request's own `timeout` (test/support/http.ts: 20–60 s): when the two are equal, Node leaves a
 * reused socket's idle timer in place for the whole request (`setRequestSocket` in _http_agent).
 */
const AGENT_TIMEOUT_MS = 120_000;

/**
 * A keep-alive agent whose idle sockets close a second before the server's announced
 * `Keep-Alive: timeout=N`. Node's agent applies that hint only when the agent has a `timeout` of its
 * own (`keepSocketAlive` compares the hint with `options.timeout || 0`); without one, a socket left
 * idle as long as the server's keep-alive timeout (the core's HTTP server and the benchmark's
 * baseline: Node's 5 s) is reused just as the server closes it, and the request fails with "socket
 * hang up". A whole `npm run bench` once died so, between two 6 s dashboard runs. The dispatcher's
 * agents have the same setting for the same reason (proto/send-webhook.ts).
 */
export function keepAliveAgent(maxSockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets, timeout: AGENT_TIMEOUT_MS });
}
