// An operation declares itself: who may run it, the input it takes, the unit of work it runs in and
// what it answers. One runner (`runOperation`) executes any operation for any transport, so a gRPC
// method, an operator's tRPC procedure and (next) a dashboard procedure only say which operation
// they call and how their request and response map to its input and result (core/README.md,
// "Layering").
import type { z } from "zod";
import { noteKeyUse } from "./api-key-use.ts";
import { resolveApiKey } from "./api-keys.ts";
import {
  MERCHANT_ROLES,
  SERVICE_NAMES,
  type Caller,
  type MerchantCaller,
  type MerchantRole,
  type PresentedCredential,
  type PublicCaller,
  type ServiceCaller,
  type ServiceName,
  type SessionCaller,
} from "./caller.ts";
import { auditedObject, recordSessionAction } from "./dashboard/audit-log.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { isConnectionLoss } from "../db/connection-loss.ts";
import { isPoolSaturated } from "../db/pool-watch.ts";
import { atomically, unitOfWork, type Changes, type Tx } from "./unit-of-work.ts";
import { inSpan, tracingOn } from "../../../proto/runtime/spans.ts";

/**
 * The unit of work an operation runs in:
 * - `read`: reads only; no transaction.
 * - `statement`: changes state only through statements atomic on their own (payment creation's
 *   single statement); no transaction, so no BEGIN/COMMIT round trips.
 * - `transaction`: one transaction around the whole run; `run` returns `Changes<T>` and its events
 *   are written to the outbox in that transaction.
 * - `steps`: opens its own short transactions (`atomically`) with I/O or a commit that must stand
 *   between them (a processor or bank call, a DNS lookup, an expiry kept though the request is
 *   refused); its unit of work is outside any transaction.
 */
export type TransactionMode = "read" | "statement" | "transaction" | "steps";

export const TRANSACTION_MODES: readonly TransactionMode[] = ["read", "statement", "transaction", "steps"];

/**
 * Who asks, as a declaration names it: a merchant's own API key, one of Paytami's processes (the
 * operator, on its own or acting for a merchant; the dispatcher; the facade), a customer's browser
 * (public), or a dashboard user's session (with a role).
 */
export type CallerKind = "merchant" | ServiceName | "public" | "session";

export const CALLER_KINDS: readonly CallerKind[] = ["merchant", ...SERVICE_NAMES, "public", "session"];

/** The kinds of caller that can reach a run taking `C` (so a declaration can name only those). */
export type KindOf<C> = C extends MerchantCaller
  ? "merchant" | "operator" | "session"
  : C extends ServiceCaller<infer N>
    ? N
    : C extends PublicCaller
      ? "public"
      : C extends PresentedCredential
        ? "merchant"
        : never;

/**
 * What a transport may hand the runner for an operation whose run takes `C`: `C` itself; an API key
 * as presented where `C` is a merchant (the runner resolves it, unless the operation takes it as
 * presented); and any process the operation could never declare (the runner refuses it).
 */
export type CallerFor<C> = C | (MerchantCaller extends C ? PresentedCredential : never) | ServiceCaller<Exclude<ServiceName, KindOf<C>>>;

/** What `run` returns for its mode: a transaction's value comes with the events it raised. */
type RunResult<M extends TransactionMode> = M extends "transaction" ? Changes<unknown> : unknown;

/** The value an operation answers (a transaction's, without its events: the runner recorded them). */
export type ValueOf<M extends TransactionMode, R> = M extends "transaction" ? (R extends Changes<infer V> ? V : never) : R;

export interface OperationDeclaration<C, I, R, M extends TransactionMode> {
  /** snake_case; also the name an idempotency fingerprint or a log line gives it. */
  name: string;
  /** Who may run it; anyone else is refused `unauthorized` before anything is read or changed. */
  callers: readonly KindOf<C>[];
  /** The least role a dashboard session needs (DESIGN §5); required when `callers` has "session". */
  role?: MerchantRole;
  /**
   * "presented": the run takes a merchant's API key as presented and resolves it in its own check
   * order (DESIGN §4: a missing Idempotency-Key is refused before the key). Otherwise the runner
   * resolves a presented key before the run, in the same unit of work.
   */
  apiKey?: "presented";
  /** The input's shape, checked by the runner; the run validates its meaning (amounts, URLs, …) in its own order. */
  input: z.ZodType<I>;
  transaction: M;
  /**
   * Running it again after the database connection was lost with its outcome unknown (the primary
   * died mid-statement, or during COMMIT) is safe: creation keyed by an Idempotency-Key finds what a
   * committed first run made. Reads, and transactions cut before COMMIT, are retried without it.
   */
  replaySafe?: true;
  run: (deps: CoreDeps, tx: Tx, caller: C, input: I) => Promise<R>;
}

/** A declared operation, ready for the runner. */
export interface Operation<C = never, I = never, R = unknown, M extends TransactionMode = TransactionMode> extends OperationDeclaration<C, I, R, M> {
  /** `callers` as a lookup, made once. */
  readonly admits: Readonly<Record<CallerKind, boolean>>;
}

/** What registries and checks read of an operation of any signature: its declaration but its input and run. */
export interface OperationInfo {
  readonly name: string;
  readonly callers: readonly CallerKind[];
  readonly role?: MerchantRole | undefined;
  readonly apiKey?: "presented" | undefined;
  readonly transaction: TransactionMode;
  readonly replaySafe?: true | undefined;
  readonly admits: Readonly<Record<CallerKind, boolean>>;
}

export function defineOperation<C extends Caller | PresentedCredential, I, M extends TransactionMode, R extends RunResult<M>>(
  declaration: OperationDeclaration<C, I, R, M>,
): Operation<C, I, R, M> {
  const callers: readonly CallerKind[] = declaration.callers;
  if (callers.length === 0) throw new Error(`operation ${declaration.name}: no callers`);
  if (callers.includes("session") !== (declaration.role !== undefined)) {
    throw new Error(`operation ${declaration.name}: a role goes with "session" among the callers, and only with it`);
  }
  const admits = Object.fromEntries(CALLER_KINDS.map((kind) => [kind, callers.includes(kind)])) as Record<CallerKind, boolean>;
  return { ...declaration, admits };
}

/** The kind of `caller`, for the check against a declaration. */
export function kindOf(caller: Caller | PresentedCredential): CallerKind {
  switch (caller.kind) {
    case "merchant":
      return caller.via === "api_key" ? "merchant" : caller.via;
    case "service":
      return caller.name;
    case "public":
      return "public";
    case "api_key":
    case "unreadable":
      return "merchant";
  }
}

const isService = (kind: CallerKind): kind is ServiceName => (SERVICE_NAMES as readonly CallerKind[]).includes(kind);

const KIND_TEXT: Record<CallerKind, string> = {
  merchant: "a merchant's API key",
  operator: "the operator's credential",
  facade: "the facade's credential",
  dispatcher: "the dispatcher's credential",
  public: "a customer's browser",
  session: "a dashboard session",
};

function refused(op: OperationInfo, kind: CallerKind): DomainError {
  const services = op.callers.filter(isService);
  // A process's credential is answered as gRPC's acting_for check always has been.
  if (isService(kind) && services.length > 0) {
    return new DomainError("unauthorized", `This needs the ${services.join(" or ")}'s credential, not the ${kind}'s.`);
  }
  return new DomainError("unauthorized", `${op.name} needs ${op.callers.map((k) => KIND_TEXT[k]).join(" or ")}, not ${KIND_TEXT[kind]}.`);
}

/** Refuses a caller the declaration does not name (and a session below its role), before anything is read. */
export function admit(op: OperationInfo, caller: Caller | PresentedCredential): void {
  const kind = kindOf(caller);
  if (!op.admits[kind]) throw refused(op, kind);
  if (kind === "session") {
    const role = (caller as MerchantCaller).role;
    if (role === undefined || MERCHANT_ROLES.indexOf(role) < MERCHANT_ROLES.indexOf(op.role!)) {
      throw new DomainError("unauthorized", `${op.name} needs the ${op.role} role or above${role ? `, not ${role}` : ""}.`);
    }
  }
}

function parseInput<I>(schema: z.ZodType<I>, input: unknown): I {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  throw new DomainError("validation_error", `${where}${issue?.message ?? "invalid input"}`);
}

/**
 * Runs `op` for `caller`: admits the caller, checks the input's shape, resolves a presented API key
 * (unless the operation does), then runs it in the unit of work it declares: a transaction for
 * "transaction" (its events written to the outbox before the commit), none otherwise; a dashboard
 * session's change is then written to the audit log. Errors pass
 * through: DomainErrors keep their catalog code, the transport maps them. No closure is made here
 * but the transaction's.
 */
export function runOperation<C, I, R, M extends TransactionMode>(
  deps: CoreDeps,
  op: Operation<C, I, R, M>,
  caller: CallerFor<C>,
  input: I,
  options: RunOptions = {},
): Promise<ValueOf<M, R>> {
  if (!tracingOn() || options.spanned) return runUntraced(deps, op, caller, input);
  // One span per operation; its SQL (instrumentation-pg) and the events it raises (outbox.ts) hang from it.
  // The operation's name is the span's; its transaction mode is the one attribute the name does not say.
  return inSpan(`operation ${op.name}`, { attributes: { "paytami.transaction": op.transaction } }, () => runUntraced(deps, op, caller, input));
}

export interface RunOptions {
  /**
   * The transport's own span stands for the operation (a gRPC method runs exactly one operation, so
   * its server span and an operation span would cover the same time: one span is made, not two,
   * carrying `operationSpanAttributes`).
   */
  spanned?: true;
}

/** What names the operation on the span of a transport that runs it (`RunOptions.spanned`). */
export function operationSpanAttributes(op: OperationInfo): Record<string, string> {
  return { "paytami.operation": op.name, "paytami.transaction": op.transaction };
}

/** Where a run got to: a transaction whose work is done is committing, and its outcome is unknown if the connection drops. */
interface Progress {
  committing: boolean;
}

/**
 * Whether a run cut by a lost database connection may run again on a fresh one (DESIGN §7): reads
 * and transactions cut before COMMIT changed nothing; a replay-safe operation finds what it did.
 */
function retryable(op: OperationInfo, progress: Progress): boolean {
  return op.replaySafe === true || op.transaction === "read" || (op.transaction === "transaction" && !progress.committing);
}

const unavailable = () =>
  new DomainError("processor_unavailable", "The service lost its database connection (a failover?); nothing is known to have changed. Retry shortly.");

/**
 * Every pooled connection stayed busy for DB_CONNECT_TIMEOUT (pool-watch.ts): the service is
 * overloaded, the client did nothing wrong. Not run again here: another wait would only lengthen
 * the queue; the client retries after DB_POOL_RETRY_AFTER. A statement is only sent on an acquired
 * connection, so the step that could not get one changed nothing.
 */
const overloaded = (deps: CoreDeps) =>
  new DomainError(
    "processor_unavailable",
    "The service is overloaded (every database connection is busy); retry shortly.",
    deps.config.dbPoolRetryAfterSeconds,
  );

async function runUntraced<C, I, R, M extends TransactionMode>(
  deps: CoreDeps,
  op: Operation<C, I, R, M>,
  caller: CallerFor<C>,
  input: I,
): Promise<ValueOf<M, R>> {
  const asked = caller as Caller | PresentedCredential;
  if (asked.kind !== "api_key") return runAdmitted(deps, op, asked, input);
  // The key's "last used", once its request is done (started, not awaited), if the key was found:
  // the run succeeded, or failed after the runner resolved the key. (An operation that resolves the
  // key itself may refuse a request before looking at it, so only its success proves the key.)
  const found = { key: false };
  try {
    const value = await runAdmitted(deps, op, asked, input, found);
    void noteKeyUse(deps, asked);
    return value;
  } catch (error) {
    if (found.key) void noteKeyUse(deps, asked);
    throw error;
  }
}

async function runAdmitted<C, I, R, M extends TransactionMode>(
  deps: CoreDeps,
  op: Operation<C, I, R, M>,
  asked: Caller | PresentedCredential,
  input: I,
  found: { key: boolean } = { key: false },
): Promise<ValueOf<M, R>> {
  admit(op, asked);
  const checked = parseInput(op.input, input);
  let progress: Progress = { committing: false };
  let value: ValueOf<M, R>;
  try {
    value = await runOnce(deps, op, asked, checked, progress, found);
  } catch (error) {
    if (isPoolSaturated(error)) throw overloaded(deps);
    if (!isConnectionLoss(error)) throw error;
    if (!retryable(op, progress)) throw unavailable();
    deps.log.warn({ err: error, operation: op.name }, "database connection lost; running the operation again on a fresh connection");
    progress = { committing: false };
    try {
      value = await runOnce(deps, op, asked, checked, progress, found);
    } catch (again) {
      throw isPoolSaturated(again) ? overloaded(deps) : isConnectionLoss(again) ? unavailable() : again;
    }
  }
  // DESIGN §5: every dashboard mutation is in the audit log, once it has succeeded.
  if (asked.kind === "merchant" && asked.via === "session" && asked.session && op.transaction !== "read") {
    await recordSessionAction(deps, unitOfWork(deps), asked as SessionCaller, op.name, auditedObject(checked, value));
  }
  return value;
}

/** One run of `op` in a new unit of work (so a retry gets a fresh connection from the pool). */
async function runOnce<C, I, R, M extends TransactionMode>(
  deps: CoreDeps,
  op: Operation<C, I, R, M>,
  asked: Caller | PresentedCredential,
  checked: I,
  progress: Progress,
  found: { key: boolean },
): Promise<ValueOf<M, R>> {
  const tx = unitOfWork(deps);
  const resolving = (asked.kind === "api_key" || asked.kind === "unreadable") && op.apiKey !== "presented";
  const runAs = resolving ? await resolveApiKey(deps, tx, asked) : asked;
  if (resolving) found.key = true;
  if (op.transaction !== "transaction") return (await op.run(deps, tx, runAs as C, checked)) as ValueOf<M, R>;
  return atomically(tx, async (inner) => {
    const changes = (await op.run(deps, inner, runAs as C, checked)) as Changes<ValueOf<M, R>>;
    progress.committing = true;
    return changes;
  });
}
