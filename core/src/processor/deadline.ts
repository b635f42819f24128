import { setImmediate as nextTurn } from "node:timers/promises";
import type { CoreConfig, Mode } from "../config.ts";
import { fail } from "../domain/errors.ts";
import { processorCalls } from "../metrics.ts";
import { ProcessorCallWithdrawn } from "./processor.ts";

/**
 * How a processor or bank call ended against its deadline: it answered (or failed, which rejects
 * instead); the processor withdrew it at the deadline (nothing charged); or the outcome is unknown,
 * and `late` is the call itself, still able to answer (or to charge).
 */
export type DeadlineOutcome<T> = { ended: "answered"; value: T } | { ended: "withdrawn" } | { ended: "unknown"; late: Promise<T> };

/**
 * Runs `call` with an AbortSignal that aborts after `timeoutMs`. A call that fails before then
 * rejects with its own error. At the deadline the signal aborts and the call has until the core's
 * next turn to settle: a processor that can withdraw the call does so synchronously on the abort
 * (a guarantee it can give only if it knows, so it knows at once); anything slower is unknown.
 */
export async function withDeadline<T>(timeoutMs: number, call: (signal: AbortSignal) => Promise<T>): Promise<DeadlineOutcome<T>> {
  const controller = new AbortController();
  const pending = Promise.resolve().then(() => call(controller.signal));
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<"expired">((resolve) => {
    timer = setTimeout(() => resolve("expired"), timeoutMs);
  });
  try {
    const first = await Promise.race([pending.then((value) => ({ value })), expired]);
    if (first !== "expired") return { ended: "answered", value: first.value };
  } finally {
    clearTimeout(timer);
  }
  controller.abort(new Error(`the call passed its deadline of ${timeoutMs} ms`));
  const settled = await Promise.race([
    pending.then(
      (value) => ({ value }),
      (error: unknown) => (error instanceof ProcessorCallWithdrawn ? ("withdrawn" as const) : ("unknown" as const)),
    ),
    nextTurn("unknown" as const),
  ]);
  if (settled === "withdrawn") return { ended: "withdrawn" };
  if (settled !== "unknown") return { ended: "answered", value: settled.value };
  return { ended: "unknown", late: pending };
}

/** Which call, for the paytami_core_processor_calls_total counter. */
export interface CallLabel {
  mode: Mode;
  call: "charge_card" | "complete_challenge" | "bank_transfer_account" | "bank_submit" | "bank_outcome";
}

/** withDeadline under PROCESSOR_CALL_TIMEOUT, counted by how the call ended (an answer by its outcome, when `answerOf` names one). */
export async function processorCall<T>(
  config: Pick<CoreConfig, "processorCallTimeoutMs">,
  label: CallLabel,
  call: (signal: AbortSignal) => Promise<T>,
  answerOf?: (value: T) => string,
): Promise<DeadlineOutcome<T>> {
  let outcome: DeadlineOutcome<T>;
  try {
    outcome = await withDeadline(config.processorCallTimeoutMs, call);
  } catch (error) {
    processorCalls.inc({ ...label, ended: "error" });
    throw error;
  }
  processorCalls.inc({ ...label, ended: outcome.ended === "answered" ? (answerOf?.(outcome.value) ?? "answered") : outcome.ended });
  return outcome;
}

/**
 * A call that changes nothing the core must wait for (a read, or a bank step that is safe to repeat
 * under its idempotency key): its answer within the deadline, else processor_unavailable. A late
 * answer is dropped; the caller's retry asks again.
 */
export async function answerWithin<T>(
  config: Pick<CoreConfig, "processorCallTimeoutMs">,
  label: CallLabel,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const outcome = await processorCall(config, label, call);
  if (outcome.ended === "answered") return outcome.value;
  if (outcome.ended === "unknown") outcome.late.catch(() => undefined);
  return fail("processor_unavailable", "The payment processor did not answer in time; try again.");
}
