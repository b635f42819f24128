// A tRPC router is a table too: each procedure names the operation it runs, its input's wire shape
// (zod, which tRPC checks and the client's types come from), where its caller comes from, and its
// input and result mapped to the operation's. A read is a query, anything else a mutation. A
// procedure whose caller the operation does not declare, or whose operation is not registered,
// stops the core at start-up (here, when the router is built).
import { z } from "zod";
import type { Mode } from "../config.ts";
import { merchantCaller, type MerchantCaller, type OperatorCaller, type ServiceCaller, type SessionCaller } from "../domain/caller.ts";
import { runOperation, type CallerFor, type CallerKind, type Operation, type OperationInfo, type TransactionMode, type ValueOf } from "../domain/operation.ts";
import { checkPairing } from "../operations/index.ts";
import { dashboardPublicProcedure, dashboardSessionProcedure, operatorProcedure, type SessionHeaders, type TrpcContext } from "./init.ts";

/** What an operator's procedure knows when it runs: the context and the operator its token proved. */
export type OperatorContext = TrpcContext & { operator: OperatorCaller };

/** Where a procedure finds its caller, as a gRPC method's `CallerSource` does. */
export interface ProcedureCaller<In, C> {
  readonly kinds: readonly CallerKind[];
  resolve(ctx: OperatorContext, input: In): C;
}

/** The operator, on its own. */
export const operator: ProcedureCaller<unknown, OperatorCaller> = { kinds: ["operator"], resolve: (ctx) => ctx.operator };

/** The merchant and mode an operator acts for, as every acting procedure's input names them. */
export const ACTING_FOR = { merchant_id: z.string(), mode: z.enum(["test", "live"]) };

/** The operator acting for the merchant and mode the input names, as the merchant's own dashboard would. */
export const actingFor: ProcedureCaller<{ merchant_id: string; mode: Mode }, MerchantCaller> = {
  kinds: ["operator"],
  resolve: (_ctx, input) => merchantCaller(input.merchant_id, input.mode, "operator"),
};

/** A procedure without input: whatever comes is ignored, as tRPC does when a procedure declares none. */
export const NO_INPUT = z.unknown();

/** The value as the operation answered it. */
export const asIs = <T>(value: T): T => value;

function checkProcedure(operation: OperationInfo, caller: { kinds: readonly CallerKind[] }): void {
  checkPairing("tRPC", "its procedure", operation, caller.kinds);
}

function resolver<S extends z.ZodType, C, I, R, M extends TransactionMode, Out>(
  operation: Operation<C, I, R, M>,
  caller: ProcedureCaller<z.output<S>, NoInfer<CallerFor<C>>>,
  input: (wire: z.output<S>) => I,
  output: (value: ValueOf<M, R>) => Out,
) {
  checkProcedure(operation, caller);
  // tRPC has parsed the input with `wire` by now (its generic type does not say so).
  return async ({ ctx, input: wire }: { ctx: OperatorContext; input: unknown }): Promise<Out> =>
    output(await runOperation(ctx.deps, operation, caller.resolve(ctx, wire as z.output<S>), input(wire as z.output<S>)));
}

/** An operator's query: a read operation. */
export function query<S extends z.ZodType, C, I, R, Out>(
  operation: Operation<C, I, R, "read">,
  wire: S,
  caller: ProcedureCaller<z.output<S>, NoInfer<CallerFor<C>>>,
  input: (wire: z.output<S>) => I,
  output: (value: ValueOf<"read", R>) => Out,
) {
  return operatorProcedure.input(wire).query(resolver(operation, caller, input, output));
}

/** An operator's mutation: an operation that changes state. */
export function mutation<S extends z.ZodType, C, I, R, M extends Exclude<TransactionMode, "read">, Out>(
  operation: Operation<C, I, R, M>,
  wire: S,
  caller: ProcedureCaller<z.output<S>, NoInfer<CallerFor<C>>>,
  input: (wire: z.output<S>) => I,
  output: (value: ValueOf<M, R>) => Out,
) {
  return operatorProcedure.input(wire).mutation(resolver(operation, caller, input, output));
}

// The dashboard's procedures: the same operations, their caller a dashboard session (the merchant,
// mode and role the session has now; never from the input, which names no merchant or mode) or,
// before there is one, the facade that forwards the browser's call.

/** What a session procedure knows when it runs. */
export type SessionContext = TrpcContext & { facade: ServiceCaller<"facade">; session: SessionCaller };

/** What a public dashboard procedure knows when it runs. */
export type FacadeContext = TrpcContext & { facade: ServiceCaller<"facade"> };

/** Only an operation whose run takes a session's caller can be named by a session procedure. */
type TakesSession<C> = SessionCaller extends CallerFor<C> ? unknown : never;
type TakesFacade<C> = ServiceCaller<"facade"> extends CallerFor<C> ? unknown : never;

function sessionResolver<S extends z.ZodType, C, I, R, M extends TransactionMode, Out>(
  operation: Operation<C, I, R, M>,
  input: (wire: z.output<S>) => I,
  output: (value: ValueOf<M, R>, headers: SessionHeaders) => Out,
) {
  checkProcedure(operation, { kinds: ["session"] });
  return async ({ ctx, input: wire }: { ctx: SessionContext; input: unknown }): Promise<Out> =>
    output(await runOperation(ctx.deps, operation, ctx.session as CallerFor<C>, input(wire as z.output<S>)), ctx.sessionHeaders);
}

/** A dashboard session's query: a read operation, for the session's merchant and mode. */
export function sessionQuery<S extends z.ZodType, C, I, R, Out>(
  operation: Operation<C, I, R, "read"> & TakesSession<C>,
  wire: S,
  input: (wire: z.output<S>) => I,
  output: (value: ValueOf<"read", R>) => Out,
) {
  return dashboardSessionProcedure.input(wire).query(sessionResolver(operation, input, output));
}

/** A dashboard session's mutation, audited by the runner once it succeeded; `output` may tell the facade to drop its cookie. */
export function sessionMutation<S extends z.ZodType, C, I, R, M extends Exclude<TransactionMode, "read">, Out>(
  operation: Operation<C, I, R, M> & TakesSession<C>,
  wire: S,
  input: (wire: z.output<S>) => I,
  output: (value: ValueOf<M, R>, headers: SessionHeaders) => Out,
) {
  return dashboardSessionProcedure.input(wire).mutation(sessionResolver(operation, input, output));
}

/**
 * A dashboard procedure before a session exists (sign-in, invite acceptance, reset): the facade's
 * call, with the browser's address and User-Agent for the input. `output` may hand a new session to
 * the facade (`headers.set`).
 */
export function facadeMutation<S extends z.ZodType, C, I, R, M extends Exclude<TransactionMode, "read">, Out>(
  operation: Operation<C, I, R, M> & TakesFacade<C>,
  wire: S,
  input: (wire: z.output<S>, ctx: FacadeContext) => I,
  output: (value: ValueOf<M, R>, headers: SessionHeaders) => Out,
) {
  checkProcedure(operation, { kinds: ["facade"] });
  return dashboardPublicProcedure
    .input(wire)
    .mutation(async ({ ctx, input: wire }) =>
      output(await runOperation(ctx.deps, operation, ctx.facade as CallerFor<C>, input(wire as z.output<S>, ctx)), ctx.sessionHeaders),
    );
}

/** A public dashboard query (an invite's details before it is accepted). */
export function facadeQuery<S extends z.ZodType, C, I, R, Out>(
  operation: Operation<C, I, R, "read"> & TakesFacade<C>,
  wire: S,
  input: (wire: z.output<S>) => I,
  output: (value: ValueOf<"read", R>) => Out,
) {
  checkProcedure(operation, { kinds: ["facade"] });
  return dashboardPublicProcedure
    .input(wire)
    .query(async ({ ctx, input: wire }) => output(await runOperation(ctx.deps, operation, ctx.facade as CallerFor<C>, input(wire as z.output<S>))));
}

/** A new session for the facade's cookie (X-Paytami-Session-Set); the page gets only `rest`. */
export function issueSession<T>(signedIn: { session: { token: string; maxAgeSeconds: number }; me: T }, headers: SessionHeaders): T {
  headers.set = { token: signedIn.session.token, maxAgeSeconds: signedIn.session.maxAgeSeconds };
  return signedIn.me;
}

/** The session has ended (sign-out, sign out everywhere): the facade drops its cookie (X-Paytami-Session-Clear). */
export function endedSession<T>(value: T, headers: SessionHeaders): T {
  headers.clear = true;
  return value;
}
