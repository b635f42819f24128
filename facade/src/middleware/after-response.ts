import type { ServerResponse } from "node:http";

/**
 * Runs `fn` once the response has gone out (or the client went away): what a middleware records of
 * a request (the access log, the request log) then neither delays the answer nor misses the status
 * Koa sent after the middleware chain (its 500 for an error nothing handled).
 */
export function afterResponse(res: ServerResponse, fn: () => void): void {
  if (res.writableFinished) fn();
  else res.once("close", fn);
}
