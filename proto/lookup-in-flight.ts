import type { LookupAddress } from "node:dns";

type Lookup = (hostname: string) => Promise<LookupAddress[]>;

/**
 * One lookup per hostname at a time: callers that ask while one is on its way share its answer (or
 * its failure); the next caller after it settles asks again, so nothing is cached beyond the wait.
 * node:dns `lookup` is getaddrinfo on libuv's threadpool (four threads by default, shared with the
 * rest of the process): an endpoint whose DNS never answers held one thread per attempt for the
 * resolver's whole timeout, and 16 concurrent attempts to it (WEBHOOK_ENDPOINT_CONCURRENCY) queued
 * every other endpoint's lookups behind them. Now such a name holds one thread.
 */
export function lookupInFlight(lookup: Lookup): Lookup {
  const pending = new Map<string, Promise<LookupAddress[]>>();
  return (hostname) => {
    let answer = pending.get(hostname);
    if (!answer) {
      answer = lookup(hostname).finally(() => pending.delete(hostname));
      pending.set(hostname, answer);
    }
    return answer;
  };
}
