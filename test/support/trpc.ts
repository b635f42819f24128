// The core's tRPC API as the suites call it: the real tRPC client over HTTP, and what a refused call carried.
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import type { AppRouter } from "../../core/src/trpc/router.ts";
import type { Stack } from "./stack.ts";

/** A tRPC client of the stack's core, sending `token` as its bearer (none with `undefined`). */
export function trpcClient(stack: Stack, token: string | undefined) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${stack.coreHttpUrl}/trpc`, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })],
  });
}

/** The catalog code, HTTP status and message a failed call carried; a call that succeeds fails the test. */
export async function trpcFailure(call: Promise<unknown>): Promise<{ code: string; status: number; message: string }> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof TRPCClientError)) throw error;
    const data = error.data as { paytami_code: string; httpStatus: number };
    return { code: data.paytami_code, status: data.httpStatus, message: error.message };
  }
  throw new Error("the call succeeded");
}
