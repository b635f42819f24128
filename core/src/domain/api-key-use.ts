// "Last used" of an API key without a write per request (core/README.md "API keys"). Each process
// remembers when it last wrote a key's use and skips the database until API_KEY_LAST_USED_INTERVAL
// has passed; the UPDATE itself is conditional (no write unless the stored time is that old), so
// several cores together still write a key at most once per interval. The write is started after
// the request's work and never awaited by it: a slow or failing write costs the request nothing.
import { db } from "../db/orm.ts";
import type { PresentedApiKey } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { isActiveKey } from "./api-keys.ts";
import { unitOfWork } from "./unit-of-work.ts";

/** Past this many remembered keys, those whose interval has passed are forgotten (they would be written anyway). */
const REMEMBERED_MAX = 10_000;

/** Per process (per database pool): each key digest → when this process may write its use again (ms). */
const nextWrite = new WeakMap<CoreDeps["orm"], Map<string, number>>();

function memoryOf(deps: CoreDeps): Map<string, number> {
  let memory = nextWrite.get(deps.orm);
  if (!memory) nextWrite.set(deps.orm, (memory = new Map<string, number>()));
  return memory;
}

function forgetPassed(memory: Map<string, number>, nowMs: number): void {
  for (const [digest, due] of memory) if (due <= nowMs) memory.delete(digest);
}

/** Writes started and not yet finished, per pool: shutdown and tests wait for them. */
const inFlight = new WeakMap<CoreDeps["orm"], Set<Promise<void>>>();

/** Resolves once every key-use write this process started has finished. */
export async function keyUsesWritten(deps: CoreDeps): Promise<void> {
  await Promise.all([...(inFlight.get(deps.orm) ?? new Set<Promise<void>>())]);
}

/**
 * Notes that `key` authenticated a request now. Returns at once; the write, when one is due, runs
 * on its own connection and its failure is only logged. The promise is for tests that await it.
 */
export function noteKeyUse(deps: CoreDeps, key: PresentedApiKey): Promise<void> {
  const now = deps.now();
  const nowMs = now.getTime();
  const memory = memoryOf(deps);
  const due = memory.get(key.digest);
  if (due !== undefined && due > nowMs) return Promise.resolve();
  if (memory.size >= REMEMBERED_MAX) forgetPassed(memory, nowMs);
  const interval = deps.config.apiKeys.lastUsedIntervalMs;
  memory.set(key.digest, nowMs + interval);
  const write = writeKeyUse(deps, key, now, interval).catch((error: unknown) => {
    // Let a later request try again rather than waiting out the interval.
    memory.delete(key.digest);
    deps.log.warn({ err: error }, "could not record an API key's last use; the request was not affected");
  });
  let writes = inFlight.get(deps.orm);
  if (!writes) inFlight.set(deps.orm, (writes = new Set<Promise<void>>()));
  writes.add(write);
  void write.finally(() => writes.delete(write));
  return write;
}

/** The conditional write: only an active key, only when its stored use is older than the interval. */
async function writeKeyUse(deps: CoreDeps, key: PresentedApiKey, now: Date, intervalMs: number): Promise<void> {
  await db(unitOfWork(deps))
    .updateTable("api_keys")
    .set({ last_used_at: now })
    .where("digest", "=", key.digest)
    .where("mode", "=", key.mode)
    .where(isActiveKey(now))
    .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", new Date(now.getTime() - intervalMs))]))
    .execute();
}
