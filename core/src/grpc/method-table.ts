// A gRPC service is a table: for each method, the operation it runs, where its caller comes from,
// and its request and response mapped to the operation's input and value. `unary` (the process's
// credential, the allow-list, request id, metrics, errors) wraps every method; the runner does the
// rest. A method missing from the table does not compile; one whose caller the operation does not
// declare, or whose operation is not registered, stops the core at start-up.
import type { handleUnaryCall } from "@grpc/grpc-js";
import type { CoreDeps } from "../domain/deps.ts";
import { runOperation, type CallerFor, type CallerKind, type Operation, type OperationInfo, type TransactionMode, type ValueOf } from "../domain/operation.ts";
import { checkPairing } from "../operations/index.ts";
import { unary, type CallContext } from "./unary.ts";

/** Where a method finds its caller: the call's credentials, and the request's `acting_for` where it has one. */
export interface CallerSource<Req, C> {
  /** The kinds of caller it yields for the callers it is meant for; each must be one the operation declares. */
  readonly kinds: readonly CallerKind[];
  resolve(context: CallContext, request: Req): C;
}

/** One method of a service, as `call` builds it. */
export interface Method<Req, Res> {
  readonly operation: OperationInfo;
  readonly kinds: readonly CallerKind[];
  readonly handle: (deps: CoreDeps, request: Req, context: CallContext) => Promise<Res>;
}

/**
 * A method that runs `operation` for the caller `caller` finds, with the input `input` maps from the
 * request, answering what `output` maps from the operation's value (and the request, for a caller that
 * chooses the answer's shape). Keep `input` and `output` small named functions: they are the method's
 * whole contract with the domain.
 */
export function call<Req, Res, C, I, R, M extends TransactionMode>(
  operation: Operation<C, I, R, M>,
  caller: CallerSource<NoInfer<Req>, NoInfer<CallerFor<C>>>,
  input: (request: NoInfer<Req>) => I,
  output: (value: ValueOf<M, R>, request: NoInfer<Req>) => Res,
): Method<Req, Res> {
  return {
    operation,
    kinds: caller.kinds,
    handle: async (deps, request, context) =>
      output(await runOperation(deps, operation, caller.resolve(context, request), input(request), { spanned: true }), request),
  };
}

/** A generated service definition (ts-proto, grpc-js flavour): each method's path and (de)serializers. */
type Definition = Record<string, { path: string; requestDeserialize(value: Buffer): unknown; responseSerialize(value: never): Buffer }>;
type RequestOf<D> = D extends { requestDeserialize(value: Buffer): infer Req } ? Req : never;
type ResponseOf<D> = D extends { responseSerialize(value: infer Res): Buffer } ? Res : never;

export type MethodTable<D extends Definition> = { [K in keyof D]: Method<RequestOf<D[K]>, ResponseOf<D[K]>> };

/** The service's handlers (the generated `…ServiceServer` shape), each method's table row checked first. */
export function serviceOf<D extends Definition>(
  deps: CoreDeps,
  definition: D,
  table: MethodTable<D>,
): { [K in keyof D]: handleUnaryCall<RequestOf<D[K]>, ResponseOf<D[K]>> } {
  const handlers: Record<string, handleUnaryCall<unknown, unknown>> = {};
  for (const [key, { path }] of Object.entries(definition)) {
    const method = table[key] as Method<unknown, unknown>;
    checkMethod(path, method);
    const name = path.slice(path.lastIndexOf("/") + 1);
    handlers[key] = unary(deps, name, method.operation, (request, context) => method.handle(deps, request, context));
  }
  return handlers as { [K in keyof D]: handleUnaryCall<RequestOf<D[K]>, ResponseOf<D[K]>> };
}

/** Start-up: the method's operation is registered and declares every kind of caller the method yields. */
export function checkMethod(path: string, method: Method<unknown, unknown>): void {
  checkPairing(path, "this method", method.operation, method.kinds);
}
