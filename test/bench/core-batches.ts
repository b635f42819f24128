// What the core's group commits did so far, read from its /metrics (core/src/metrics.ts,
// groupCommitGauges): for the benches that print the batch-size distribution of a run.
import type { Stack } from "../support/stack.ts";

/** Batches run so far by requests per batch: `create` (paytami_core_create_batches) or `refund` (paytami_core_refund_batches). */
export async function coreBatches(s: Stack, kind: "create" | "refund"): Promise<Map<number, number>> {
  const text = await (await fetch(`${s.coreHttpUrl}/metrics`, { headers: { authorization: `Bearer ${s.internalToken}` } })).text();
  const counts = new Map<number, number>();
  for (const [, size, count] of text.matchAll(new RegExp(`^paytami_core_${kind}_batches\\{size="(\\d+)"\\} (\\d+)$`, "gm")))
    counts.set(Number(size), Number(count));
  return counts;
}
