// The declared operations: for each, the function it runs (the domain's), who may run it, its input's
// shape and its unit of work (core/src/domain/operation.ts). They sit between the transports, which
// list them in their tables, and the domain, which knows nothing of them. Every one is in this list:
// the transports' tables may name only these (a start-up check), and operations.test.ts asserts
// each one's callers and unit of work.
import type { CallerKind, OperationInfo } from "../domain/operation.ts";
import { admin } from "./admin.ts";
import { checkout } from "./checkout.ts";
import { dashboard } from "./dashboard.ts";
import { dashboardAuth } from "./dashboard-auth.ts";
import { dashboardSecurity, dashboardTeam } from "./dashboard-team.ts";
import { deliveries } from "./deliveries.ts";
import { endpointDeliveries } from "./endpoint-deliveries.ts";
import { ledger } from "./ledger.ts";
import { links } from "./links.ts";
import { payments } from "./payments.ts";
import { payouts } from "./payouts.ts";
import { refunds } from "./refunds.ts";
import { requestLogs } from "./request-logs.ts";
import { webhookSecrets } from "./webhook-secrets.ts";
import { settings } from "./settings.ts";
import { webhooks } from "./webhooks.ts";

const AREAS: ReadonlyArray<Readonly<Record<string, OperationInfo>>> = [
  payments,
  checkout,
  admin,
  links,
  refunds,
  webhooks,
  webhookSecrets,
  deliveries,
  endpointDeliveries,
  payouts,
  ledger,
  dashboard,
  dashboardAuth,
  dashboardTeam,
  dashboardSecurity,
  requestLogs,
  settings,
];

export const OPERATIONS: readonly OperationInfo[] = AREAS.flatMap((area) => Object.values(area));

const registered = new Set<unknown>(OPERATIONS);

export function isRegistered(operation: unknown): boolean {
  return registered.has(operation);
}

/**
 * Start-up check of one transport entry (a gRPC method, a tRPC procedure): its operation is
 * registered and declares every kind of caller the entry yields. `where` names the entry and `entry`
 * is how the message refers to it ("this method", "its procedure").
 */
export function checkPairing(where: string, entry: string, operation: OperationInfo, kinds: readonly CallerKind[]): void {
  if (!isRegistered(operation)) throw new Error(`${where}: operation ${operation.name} is not in OPERATIONS (core/src/operations/index.ts)`);
  const undeclared = kinds.filter((kind) => !operation.admits[kind]);
  if (undeclared.length > 0) throw new Error(`${where}: operation ${operation.name} does not declare the caller(s) ${undeclared.join(", ")} ${entry} yields`);
}

/** The input of an operation that takes none (what its transport request names is the caller). */
export const noInput = (): undefined => undefined;
