// The core's operator tRPC as the CLI calls it (`logs tail`, `settings`): the real tRPC client over
// CORE_HTTP_URL (./connect.ts) with the operator's internal token, and a refused call turned into
// the CoreError every command reports (its catalog code, exit 1).
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { CoreError } from "../../../proto/core-error.ts";
import { isErrorCode } from "../../../proto/error-catalog.ts";
import type { AppRouter } from "../trpc/router.ts";
import { coreHttp } from "./connect.ts";

export function operatorTrpc() {
  const { url, token } = coreHttp();
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: `${url}/trpc`, headers: token ? { authorization: `Bearer ${token}` } : {} })] });
}

/** A refused tRPC call as the CLI reports every failure: its catalog code (an unreachable core is processor_unavailable, as over gRPC). */
export function asCoreError(error: unknown): unknown {
  if (!(error instanceof TRPCClientError)) return error;
  const code = (error.data as { paytami_code?: unknown } | undefined)?.paytami_code;
  return new CoreError(isErrorCode(code) ? code : "processor_unavailable", error.message, isErrorCode(code));
}

/** The call's result, or its failure as a CoreError. */
export async function called<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw asCoreError(error);
  }
}
