// Issue 19's NATS failover, as test/nats-cluster.test.ts (no event lost) and
// test/bench/nats-failover.ts (how fast delivery recovers) both run it: payments captured at a steady
// 200 a second, each raising payment.succeeded; 1.5 s in, the server leading the event stream is
// killed -9 and started again 2 s later; the load goes on until `loadAfterKillMs` after the kill.
import type { NatsCluster } from "../../core/src/devstack/nats-cluster.ts";
import { startPacedCaptures } from "./paced-captures.ts";
import type { Stack } from "./stack.ts";

/** Issue 19's event rate. */
export const EVENTS_PER_SECOND = 200;
const KILL_AFTER_MS = 1_500;
export const RESTART_AFTER_MS = 2_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export interface StreamLeaderFailover {
  /** The node that led the stream and was killed. */
  victim: string;
  killedAt: number;
  /** Payments of the load that failed, as text. */
  failures: string[];
}

export async function failStreamLeaderUnderLoad(
  stack: Pick<Stack, "http" | "admin">,
  apiKey: string,
  cluster: NatsCluster,
  loadAfterKillMs: number,
): Promise<StreamLeaderFailover> {
  const load = startPacedCaptures(stack, apiKey, EVENTS_PER_SECOND);
  try {
    await sleep(KILL_AFTER_MS);
    const victim = await cluster.streamLeader();
    if (!victim) throw new Error("the event stream has no leader to kill");
    const killedAt = Date.now();
    await cluster.kill(victim);
    await sleep(RESTART_AFTER_MS);
    await cluster.restart(victim);
    await sleep(killedAt + loadAfterKillMs - Date.now());
    return { victim, killedAt, failures: await load.stop() };
  } catch (error) {
    await load.stop();
    throw error;
  }
}
