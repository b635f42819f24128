// Whom a dashboard request on the core's plain HTTP routes (the CSV export) speaks for: exactly as
// the dashboard's tRPC decides it (trpc/init.ts dashboardSessionProcedure): the facade's own
// credential, then a session that has not ended (sessions.ts resolveSession); the forwarded
// headers of the dashboard contract carry the session token and the browser's address.
import type { IncomingMessage } from "node:http";
import type { SessionCaller } from "../domain/caller.ts";
import { resolveSession } from "../domain/dashboard/sessions.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { DomainError } from "../domain/errors.ts";
import { facadeCheck } from "../domain/service-credentials.ts";
import { unitOfWork } from "../domain/unit-of-work.ts";
import { CLIENT_IP_HEADER, SESSION_HEADER } from "../trpc/router.ts";
import { bearerToken } from "./bearer-token.ts";
import type { ExportCaller } from "./payments-export.ts";

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value) || undefined;

export function dashboardSessionCaller(deps: CoreDeps): ExportCaller {
  const resolveFacade = facadeCheck(deps.config.serviceTokens.facade);
  return async (req: IncomingMessage, answer: { clear?: true }): Promise<SessionCaller> => {
    resolveFacade(bearerToken(req.headers.authorization));
    const token = single(req.headers[SESSION_HEADER]);
    const session = token ? await resolveSession(deps, unitOfWork(deps), token, single(req.headers[CLIENT_IP_HEADER])) : undefined;
    if (!session) {
      // A presented session that has ended: the facade clears its cookie.
      if (token) answer.clear = true;
      throw new DomainError("unauthorized", "You are not signed in, or your session has ended; sign in again.");
    }
    return session;
  };
}
