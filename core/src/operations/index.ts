// The declared operations: for each, the function it runs (the domain's), who may run it, its input's
// shape and its unit of work (core/src/domain/operation.ts). They sit between the transports, which
// list them in their tables, and the domain, which knows nothing of them. Every one is in this list:
// the transports' tables may name only these (a start-up check), and operations.test.ts asserts
// each one's callers and unit of work.
import type { OperationInfo } from "../domain/operation.ts";
import { admin } from "./admin.ts";
import { checkout } from "./checkout.ts";
import { deliveries } from "./deliveries.ts";
import { ledger } from "./ledger.ts";
import { links } from "./links.ts";
import { payments } from "./payments.ts";
import { payouts } from "./payouts.ts";
import { refunds } from "./refunds.ts";
import { webhooks } from "./webhooks.ts";

const AREAS: ReadonlyArray<Readonly<Record<string, OperationInfo>>> = [payments, checkout, admin, links, refunds, webhooks, deliveries, payouts, ledger];

export const OPERATIONS: readonly OperationInfo[] = AREAS.flatMap((area) => Object.values(area));

const registered = new Set<unknown>(OPERATIONS);

export function isRegistered(operation: unknown): boolean {
  return registered.has(operation);
}
