import type { Router, RouterContext } from "@koa/router";
import { z } from "zod";
import type { ErrorCode } from "../../../proto/error-catalog.ts";

// One declaration per /v1 route: the router registers the route from it (`route`, `idempotentPost`)
// and the OpenAPI document (document.ts) describes the route from it, so neither can name a route the
// other does not. Request shapes are the zod shapes the route parses with (request-shapes.ts and its
// siblings); response shapes come from response-shapes.ts.

export type Tag = "Payments" | "Checkout" | "Payment links" | "Refunds" | "Events" | "Balance" | "Payouts" | "Chargebacks" | "Webhook endpoints" | "Meta";

/** A catalog code the route may answer, at the catalog's status (error-map.ts) unless the route sets its own. */
export type DeclaredError = ErrorCode | { code: ErrorCode; status: number; when: string };

export interface SuccessResponse {
  status: 200 | 201;
  description: string;
  body: z.ZodType;
  /** Answers with `Idempotent-Replayed: true` when it replays the first answer to the same Idempotency-Key. */
  replayable?: boolean;
}

export interface RedirectResponse {
  status: 302;
  description: string;
}

export interface ApiOperation {
  /** Stable and unique: the SDK's and generated clients' method name (camelCase verbNoun). */
  operationId: string;
  method: "get" | "post" | "delete";
  /** The router's path (`:id` for a path parameter); the document writes it `{id}`. */
  path: `/v1/${string}`;
  tag: Tag;
  summary: string;
  /** Markdown. */
  description: string;
  /** merchant: `Authorization: Bearer sk_…` required (401 unauthorized without); public: the customer's browser calls it. */
  auth: "merchant" | "public";
  /** The Idempotency-Key header: required on every create (400 idempotency_key_required without), optional where a retry replays. */
  idempotencyKey?: "required" | "optional";
  /** One zod field per `:param` of the path. */
  pathParams?: z.ZodObject;
  query?: z.ZodType;
  /** The JSON body, as the route parses it. */
  body?: z.ZodType;
  response: SuccessResponse | RedirectResponse;
  /**
   * Every catalog code the route can answer besides those any route can (ALWAYS_POSSIBLE in
   * document.ts: internal_error, processor_unavailable), and unauthorized, which `auth: "merchant"` adds.
   */
  errors: readonly DeclaredError[];
}

/** The typed identity: `satisfies` keeps the literal path while checking the declaration. */
export const operation = <const Op extends ApiOperation>(op: Op): Op => op;

/** A path parameter holding a public id; any other text answers the route's unknown-id error, not validation_error. */
export const idParam = (description: string) => z.object({ id: z.string().meta({ description }) });

/** Registers a declared route (anything but an idempotent create, which idempotentPost registers). */
export function route(router: Router, op: ApiOperation, handler: (ctx: RouterContext) => Promise<void>): void {
  router[op.method](op.operationId, op.path, handler);
}
