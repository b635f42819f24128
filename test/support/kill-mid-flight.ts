// The crash half of the group-commit kill tests (create-batch-kill, refund-batch-kill): `count`
// requests at once, the core killed (SIGKILL) once 40 of them have come back, so that the rest are
// queued in it or inside one of its batches; the core restarted; then every request retried with its
// own key, as a client does on 503 while the facade reconnects, until it gets something else.
import { expect } from "vitest";
import type { Res } from "./http.ts";
import type { Stack } from "./stack.ts";

/** `send(i)` sends request i (always with the same key and body). Every retry must end in 201, a replay of the first answer where that one committed. */
export async function killCoreMidFlight(s: Stack, count: number, send: (i: number) => Promise<Res>): Promise<{ first: (Res | undefined)[]; retried: Res[] }> {
  let answered = 0;
  let killed = false;
  const first = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      send(i).then(
        (r) => {
          answered += 1;
          if (answered === 40 && !killed) {
            killed = true;
            process.kill(s.pids().core!, "SIGKILL");
          }
          return r;
        },
        () => undefined,
      ),
    ),
  );
  expect(killed).toBe(true);
  // Some requests were cut off by the kill (it happened mid-flight, not after the work was done).
  expect(first.filter((r) => r?.status !== 201).length).toBeGreaterThan(0);
  await s.stopProcess("core");
  await s.startProcess("core");

  const retry = async (i: number): Promise<Res> => {
    for (let attempt = 0; ; attempt++) {
      const r = await send(i);
      if (r.status !== 503 || attempt === 50) return r;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const retried: Res[] = [];
  for (let i = 0; i < count; i += 50) {
    retried.push(...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => retry(i + j)))));
  }
  retried.forEach((r, i) => {
    expect(r.status, r.text).toBe(201);
    const before = first[i];
    if (before?.status === 201) {
      expect(r.text).toBe(before.text);
      expect(r.header("idempotent-replayed")).toBe("true");
    }
  });
  return { first, retried };
}
