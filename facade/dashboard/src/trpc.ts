// The app's one way to the core: tRPC's official TanStack Query integration, typed by the core's
// AppRouter (a type-only import: nothing of the core is bundled). Every call goes to the facade's
// /dashboard/trpc, which adds the credentials and forwards it (facade/src/routes/dashboard.ts).
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../core/src/trpc/router.ts";

export type { AppRouter };
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export const TRPC_URL = "/dashboard/trpc";

export function createTrpcClient() {
  // Mutations are POSTs with Content-Type: application/json, same-origin, so the browser sends the
  // Origin the facade's CSRF check wants; queries are GETs.
  return createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: TRPC_URL, maxURLLength: 4000 })] });
}

export function createQueryClient(): QueryClient {
  // Any call answered 401 means the session has ended (idle, absolute, signed out elsewhere):
  // asking `dashboard.auth.me` again lets the shell notice and go to the sign-in page.
  const ME = ["dashboard", "auth", "me"];
  const sessionEnded = (error: unknown) => {
    if (httpStatusOf(error) === 401) void client.invalidateQueries({ queryKey: [ME] });
  };
  const client: QueryClient = new QueryClient({
    // `me` itself answering 401 is how the shell learns it (session.tsx), not a reason to ask it again.
    queryCache: new QueryCache({ onError: (error, query) => JSON.stringify(query.queryKey[0]) !== JSON.stringify(ME) && sessionEnded(error) }),
    mutationCache: new MutationCache({ onError: sessionEnded }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        // A refusal (bad input, role, session) will not change on a retry; an unavailable core might.
        retry: (failures, error) => failures < 2 && httpStatusOf(error) >= 500,
        refetchOnWindowFocus: false,
      },
    },
  });
  return client;
}

/** The HTTP status a tRPC failure carried (0 when there was none: the network). */
export function httpStatusOf(error: unknown): number {
  const data = (error as { data?: { httpStatus?: unknown } } | null)?.data;
  return typeof data?.httpStatus === "number" ? data.httpStatus : 0;
}
