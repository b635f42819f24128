// The suites' one way to wait: poll a check until it yields a value, within a deadline. A test waits
// for the state it needs (a row, a counter, a log line), never for a fixed time, so a slow or loaded
// machine makes it slower, not red.

/** Calls `check` every `intervalMs` until it returns a value other than undefined, and returns that value. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000, what = "the condition", intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
