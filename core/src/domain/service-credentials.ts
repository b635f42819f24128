import { createHash, timingSafeEqual } from "node:crypto";
import { OPERATOR, SERVICE_NAMES, type OperatorCaller, type ServiceCaller, type ServiceName } from "./caller.ts";
import { DomainError } from "./errors.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The caller a presented internal credential names, or `unauthorized`. */
export type ServiceCheck = (presented: string | undefined) => ServiceCaller;

/** The operator caller for a presented internal token, or `unauthorized`. */
export type OperatorCheck = (presented: string | undefined) => OperatorCaller;

/** The facade caller for a presented facade token, or `unauthorized`. */
export type FacadeCheck = (presented: string | undefined) => ServiceCaller<"facade">;

const refused = () => new DomainError("unauthorized", "A valid internal token is required.");

/**
 * The check of a process's credential, whichever transport carried it (gRPC metadata, the tRPC
 * Authorization header, /metrics). Compared in constant time against every configured token, over
 * digests so lengths leak nothing; the configured digests are made once here, not on every call.
 */
export function serviceCheck(tokens: Readonly<Record<ServiceName, string>>): ServiceCheck {
  const expected = SERVICE_NAMES.map((name) => ({ caller: { kind: "service", name } satisfies ServiceCaller, digest: digest(tokens[name]) }));
  return (presented) => {
    if (!presented) throw refused();
    const mine = digest(presented);
    let found: ServiceCaller | undefined;
    // Every token is compared, so the time taken does not say which one matched.
    for (const candidate of expected) if (timingSafeEqual(mine, candidate.digest)) found = candidate.caller;
    if (!found) throw refused();
    return found;
  };
}

/** The operator's token only: tRPC and /metrics, which no other process's credential opens. */
export function operatorCheck(internalToken: string): OperatorCheck {
  const expected = digest(internalToken);
  return (presented) => {
    if (!presented || !timingSafeEqual(digest(presented), expected)) throw refused();
    return OPERATOR;
  };
}

const FACADE: ServiceCaller<"facade"> = { kind: "service", name: "facade" };

/** The facade's token only: the dashboard's tRPC procedures, which the facade forwards for browsers (no other process's credential opens them). */
export function facadeCheck(facadeToken: string): FacadeCheck {
  const expected = digest(facadeToken);
  return (presented) => {
    if (!presented || !timingSafeEqual(digest(presented), expected)) throw refused();
    return FACADE;
  };
}
