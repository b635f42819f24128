// Which failures mean "the database connection went away" (the primary died, restarted or is being
// replaced) rather than "this statement is wrong": the first may be retried on a fresh connection
// or answered 503, the second is a bug or a domain refusal.

// SQLSTATE class 08 (connection exception), 57P01..57P03 (shutdown, crash, not accepting connections
// yet), 25006 (read-only transaction: the host we reached is a standby now) and 25P03 (the server
// ended a session whose transaction waited past DB_IDLE_IN_TRANSACTION_TIMEOUT).
const SQLSTATES = new Set(["08000", "08001", "08003", "08004", "08006", "08P01", "57P01", "57P02", "57P03", "25006", "25P03"]);
const NODE_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "PAYTAMI_NO_PRIMARY"]);
// What pg says, without a code, when the socket closed under a query or a connect timed out.
const MESSAGES = [/^Connection terminated/, /^timeout expired$/, /not queryable/, /^Client was closed/];

/** True when `error` (or an error it wraps: MikroORM and kysely wrap pg's) is a lost database connection. */
export function isConnectionLoss(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e = error; e && typeof e === "object" && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (SQLSTATES.has(code) || NODE_CODES.has(code))) return true;
    if (typeof message === "string" && MESSAGES.some((m) => m.test(message))) return true;
  }
  return false;
}
