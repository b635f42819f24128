import * as http from "node:http";
import { keepAliveOptions } from "../../proto/keep-alive.ts";

/**
 * The suites' and benchmarks' keep-alive agent: idle sockets close before the server closes them
 * (proto/keep-alive.ts; an `npm run bench` once died of "socket hang up" between two 6 s runs against
 * the core's HTTP server). 120 s idle at most: apart from every request timeout the suites use (20–60 s).
 */
export function keepAliveAgent(maxSockets: number): http.Agent {
  return new http.Agent(keepAliveOptions(maxSockets, 120_000));
}
