import type { ApiOperation } from "../operation.ts";
import * as balance from "./balance.ts";
import * as checkout from "./checkout.ts";
import * as events from "./events.ts";
import * as links from "./links.ts";
import * as meta from "./meta.ts";
import * as payments from "./payments.ts";
import * as payouts from "./payouts.ts";
import * as refunds from "./refunds.ts";
import * as webhookEndpoints from "./webhook-endpoints.ts";

const MODULES: readonly Readonly<Record<string, ApiOperation>>[] = [payments, checkout, links, refunds, events, webhookEndpoints, balance, payouts, meta];

/** Every /v1 operation, in the document's order (each module's exports, in module order). A route file registers each; openapi/routes.test.ts checks both ways. */
export const OPERATIONS: readonly ApiOperation[] = MODULES.flatMap((module) => Object.values(module));
