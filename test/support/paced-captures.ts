// A steady event source for the NATS failover test and bench: clients creating payments and
// capturing them (each capture raises payment.succeeded), each on its own schedule, so the rate is
// the one asked for whatever the machine's speed, never a burst to make up for payments missed.
import type { Stack } from "./stack.ts";
import { createOk } from "./expect.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface PacedCaptures {
  /** Stops after each client's payment in progress; what failed, as text. */
  stop(): Promise<string[]>;
}

export function startPacedCaptures(stack: Pick<Stack, "http" | "admin">, apiKey: string, perSecond: number, clients = 8): PacedCaptures {
  let stopping = false;
  const failures: string[] = [];
  const period = (clients * 1_000) / perSecond;
  const client = async () => {
    let next = Date.now();
    while (!stopping) {
      try {
        const id = (await createOk(stack.http, apiKey, {})).id as string;
        await stack.admin.simulate(id, "succeed");
      } catch (error) {
        failures.push(String(error));
      }
      // Behind schedule: the next payment at once.
      next = Math.max(next + period, Date.now());
      await sleep(Math.max(0, next - Date.now()));
    }
  };
  const running = Array.from({ length: clients }, client);
  return {
    async stop() {
      stopping = true;
      await Promise.all(running);
      return failures;
    },
  };
}
