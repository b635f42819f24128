import type { AgentOptions } from "node:http";

/**
 * Options for a keep-alive http(s).Agent that closes an idle socket after `idleMs`, or a second
 * before the server's announced `Keep-Alive: timeout=N` when that comes first. Node's agent applies
 * the hint only when the agent has a `timeout` of its own (`keepSocketAlive` compares it with
 * `options.timeout || 0`); without one, a socket left idle as long as the server's keep-alive timeout
 * is reused just as the server closes it, and the request fails (ECONNRESET, "socket hang up").
 * Keep `idleMs` apart from any request's own `timeout`: when the two are equal, Node leaves a reused
 * socket's idle timer in place for the whole request (`setRequestSocket` in _http_agent).
 */
export function keepAliveOptions(maxSockets: number, idleMs: number): AgentOptions {
  return { keepAlive: true, maxSockets, timeout: idleMs };
}
