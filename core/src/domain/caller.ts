import type { Mode, SERVICE_TOKEN_ENV } from "../config.ts";

// Who is asking, as the transport established it. Domain operations take one of
// these and never see a transport credential (an Authorization header, an
// internal token, a dashboard session cookie): the transport turns those into a
// caller, and an operation's parameter type says which callers may ask for it.

/**
 * A merchant acting in one mode, and who speaks for it: the merchant's own API key, one of
 * Paytami's processes acting for it (the operator through `acting_for`), or (with the dashboard) a
 * user's session with its role. An operation's declared callers name who may (operation.ts).
 */
export interface MerchantCaller {
  kind: "merchant";
  merchantId: string;
  mode: Mode;
  via: "api_key" | ServiceName | "session";
  /** A session's role in the merchant (DESIGN §5); absent for every other `via`. */
  role?: MerchantRole | undefined;
  /** A session's user and where it speaks from (its audit rows name them); absent for every other `via`. */
  session?: SessionInfo | undefined;
}

/** The dashboard session a merchant caller came from. */
export interface SessionInfo {
  userId: string;
  sessionId: string;
  /** The browser's address as the facade saw it. */
  clientIp: string | undefined;
}

/** A merchant caller that came from a dashboard session: its role and session are always there. */
export type SessionCaller = MerchantCaller & { via: "session"; role: MerchantRole; session: SessionInfo };

/** A dashboard user's role in a merchant, least first (DESIGN §5): each may do all the one before may. */
export type MerchantRole = "viewer" | "developer" | "admin" | "owner";

export const MERCHANT_ROLES: readonly MerchantRole[] = ["viewer", "developer", "admin", "owner"];

/**
 * Paytami's own processes, each with a credential of its own: the operator (the CLI, tRPC and
 * internal tools: every operation), the facade and the dispatcher (only the gRPC methods the
 * allow-list in core/src/grpc/access.ts grants them).
 */
export type ServiceName = keyof typeof SERVICE_TOKEN_ENV;

export const SERVICE_NAMES: readonly ServiceName[] = ["operator", "facade", "dispatcher"];

/** One of Paytami's own processes, named by the credential it presented. */
export interface ServiceCaller<N extends ServiceName = ServiceName> {
  kind: "service";
  name: N;
}

/** Paytami's operators (the internal token): an operation only they may ask for takes this. */
export type OperatorCaller = ServiceCaller<"operator">;

/** The dispatcher, or an operator: webhook delivery's bookkeeping takes this. */
export type DeliveryCaller = ServiceCaller<"operator" | "dispatcher">;

/** Someone with no credential at all: a customer's browser on checkout or a payment link. */
export interface PublicCaller {
  kind: "public";
  /** The customer's address as the facade saw it, where the transport passes one (card submits: CARD_SUBMIT_LIMIT). */
  clientIp?: string | undefined;
}

export type Caller = MerchantCaller | ServiceCaller | PublicCaller;

/**
 * An API key as presented, checked for form and digested but not looked up
 * yet. Payment creation resolves it inside its single statement (one round
 * trip); everything else resolves it first with `resolveApiKey`.
 */
export interface PresentedApiKey {
  kind: "api_key";
  digest: string;
  /** The mode the key names in its prefix; the stored key always agrees. */
  mode: Mode;
}

/**
 * A credential the transport could not read as an API key (missing, not
 * `Bearer`, not `sk_…`). It is refused as `unauthorized` in its place in the
 * check order, which the domain decides (a missing Idempotency-Key comes first).
 */
export interface UnreadableCredential {
  kind: "unreadable";
}

export type PresentedCredential = PresentedApiKey | UnreadableCredential;

export const OPERATOR: OperatorCaller = { kind: "service", name: "operator" };
export const PUBLIC: PublicCaller = { kind: "public" };

/** A merchant caller; `via` says who speaks for the merchant (its own API key unless told). */
export function merchantCaller(merchantId: string, mode: Mode, via: MerchantCaller["via"] = "api_key"): MerchantCaller {
  return { kind: "merchant", merchantId, mode, via };
}
