// The group-commit queue (group-commit.ts) on its own: which requests go in which batch, and when.
import { afterEach, describe, expect, test, vi } from "vitest";
import { PoolSaturatedError } from "../db/pool-watch.ts";
import { aloneOrTogether, GroupCommit, type GroupCommitPolicy, type Outcome, type Pending } from "./group-commit.ts";

interface Item {
  name: string;
  key: string;
}

/** A queue whose batches finish only when the test says so; each request is answered with its batch's number. */
function queue(policy: GroupCommitPolicy, keyed = true) {
  const batches: string[][] = [];
  const finish: (() => void)[] = [];
  const sizes: number[] = [];
  const group = new GroupCommit<Item, number>({
    name: "test",
    policy: () => policy,
    ...(keyed ? { key: (item: Item) => item.key } : {}),
    sizes,
    run: (batch: Pending<Item, number>[]) => {
      const n = batches.push(batch.map((p) => p.item.name)) - 1;
      return new Promise<void>((resolve) => {
        finish[n] = () => {
          for (const p of batch) p.resolve(n);
          resolve();
        };
      });
    },
  });
  const answers = new Map<string, number>();
  const submit = (name: string, key = name) => void group.submit({ name, key }).then((n) => answers.set(name, n));
  /** Lets the queue's promise callbacks run. */
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  let finished = 0;
  /** Finishes the oldest running batch, and lets what follows from it run. */
  const next = async () => {
    finish[finished++]!();
    await settle();
  };
  return { batches, sizes, answers, submit, settle, next };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("group commit queue", () => {
  test("a request goes at once when nothing runs; those arriving during a run go together next, in arrival order", async () => {
    const q = queue({ max: 10, waitMs: 5 });
    q.submit("a");
    expect(q.batches).toEqual([["a"]]);
    q.submit("b");
    q.submit("c");
    q.submit("d");
    await q.settle();
    // Still running a: the others wait for it.
    expect(q.batches).toEqual([["a"]]);
    await q.next();
    expect(q.batches).toEqual([["a"], ["b", "c", "d"]]);
    q.submit("e");
    await q.next();
    // e arrived during the second run: it goes in the third batch, not the second.
    expect(q.batches).toEqual([["a"], ["b", "c", "d"], ["e"]]);
    await q.next();
    expect(Object.fromEntries(q.answers)).toEqual({ a: 0, b: 1, c: 1, d: 1, e: 2 });
    expect(q.sizes).toEqual([undefined, 2, undefined, 1]);
  });

  test("a batch holds at most `max`; the rest go in the next, still in arrival order", async () => {
    const q = queue({ max: 2, waitMs: 0 });
    q.submit("a");
    for (const name of ["b", "c", "d", "e", "f"]) q.submit(name);
    for (let i = 0; i < 3; i++) await q.next();
    expect(q.batches).toEqual([["a"], ["b", "c"], ["d", "e"], ["f"]]);
  });

  test("no key twice in one batch: the later same-key request waits for the next batch, the others keep their places", async () => {
    const q = queue({ max: 10, waitMs: 0 });
    q.submit("a");
    q.submit("b1", "k");
    q.submit("c");
    q.submit("b2", "k");
    q.submit("b3", "k");
    q.submit("d");
    for (let i = 0; i < 3; i++) await q.next();
    expect(q.batches).toEqual([["a"], ["b1", "c", "d"], ["b2"], ["b3"]]);
  });

  test("without a key, same-key requests share a batch, up to `max`, in arrival order", async () => {
    const q = queue({ max: 3, waitMs: 0 }, false);
    q.submit("a");
    q.submit("b1", "k");
    q.submit("b2", "k");
    q.submit("b3", "k");
    q.submit("c");
    for (let i = 0; i < 3; i++) await q.next();
    expect(q.batches).toEqual([["a"], ["b1", "b2", "b3"], ["c"]]);
  });

  test("an idle queue after a batch of several waits `waitMs` for company; after a lone request, or at `max`, or with waitMs 0 it does not", async () => {
    vi.useFakeTimers();
    const q = queue({ max: 3, waitMs: 5 });
    q.submit("a");
    q.submit("b");
    q.submit("c");
    await q.next();
    await q.next();
    expect(q.batches).toEqual([["a"], ["b", "c"]]);

    // The last batch carried two: the next request waits for the timer, and one arriving meanwhile joins it.
    q.submit("d");
    await q.settle();
    expect(q.batches).toHaveLength(2);
    vi.advanceTimersByTime(3);
    q.submit("e");
    await q.settle();
    expect(q.batches).toHaveLength(2);
    // The timer is not restarted by the second request: 5 ms after the first, both go.
    vi.advanceTimersByTime(2);
    await q.settle();
    expect(q.batches).toEqual([["a"], ["b", "c"], ["d", "e"]]);
    await q.next();

    // Idle again after a batch of two: reaching `max` goes at once, without the timer.
    q.submit("f");
    q.submit("g");
    expect(q.batches).toHaveLength(3);
    q.submit("h");
    expect(q.batches).toEqual([["a"], ["b", "c"], ["d", "e"], ["f", "g", "h"]]);
    await q.next();

    // A lone request follows a lone request without waiting.
    const lone = queue({ max: 3, waitMs: 5 });
    lone.submit("x");
    await lone.next();
    lone.submit("y");
    expect(lone.batches).toEqual([["x"], ["y"]]);

    // waitMs 0 never waits, even after a batch of several.
    const eager = queue({ max: 3, waitMs: 0 });
    eager.submit("p");
    eager.submit("q");
    eager.submit("r");
    await eager.next();
    await eager.next();
    eager.submit("s");
    expect(eager.batches).toEqual([["p"], ["q", "r"], ["s"]]);
  });
});

describe("aloneOrTogether", () => {
  /** Runs `names` as one batch through aloneOrTogether and says what each request got and what ran. */
  async function runBatch(names: string[], together: (items: string[]) => Promise<Outcome<string>[]>) {
    const ran: string[] = [];
    const failures = { count: 0 };
    const run = aloneOrTogether<string, string>({
      alone: async (item) => {
        ran.push(`alone ${item}`);
        if (item.startsWith("bad")) throw new Error(`${item} refused`);
        return `${item} alone`;
      },
      together: async (items) => {
        ran.push(`together ${items.join(",")}`);
        return together(items);
      },
      failures,
    });
    const answers: string[] = [];
    const batch: Pending<string, string>[] = names.map((item, i) => ({
      item,
      resolve: (r) => (answers[i] = `ok ${r}`),
      reject: (e) => (answers[i] = `error ${e instanceof Error ? e.message : String(e)}`),
    }));
    await run(batch);
    return { answers, ran, failures: failures.count };
  }

  test("one request runs alone; several run together and each gets its own outcome", async () => {
    expect(await runBatch(["a"], () => Promise.reject(new Error("not called")))).toEqual({ answers: ["ok a alone"], ran: ["alone a"], failures: 0 });
    const several = await runBatch(["a", "b", "c"], async (items) =>
      items.map((item) => (item === "b" ? { error: new Error("b refused") } : { ok: `${item} together` })),
    );
    expect(several).toEqual({ answers: ["ok a together", "error b refused", "ok c together"], ran: ["together a,b,c"], failures: 0 });
  });

  test("a batch that fails runs its requests alone, in arrival order, and counts the failure", async () => {
    const failed = await runBatch(["a", "bad1", "c"], () => Promise.reject(new Error("deadlock detected")));
    expect(failed).toEqual({
      answers: ["ok a alone", "error bad1 refused", "ok c alone"],
      ran: ["together a,bad1,c", "alone a", "alone bad1", "alone c"],
      failures: 1,
    });
  });

  test("a batch that got no connection answers every request with that, running nothing alone", async () => {
    const saturated = await runBatch(["a", "b"], () => Promise.reject(new Error("query failed", { cause: new PoolSaturatedError(5_000) })));
    expect(saturated.answers).toEqual(["error query failed", "error query failed"]);
    expect(saturated.ran).toEqual(["together a,b"]);
    expect(saturated.failures).toBe(0);
  });
});
