import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from "zod-openapi";
import type { ErrorCode } from "../../../proto/error-catalog.ts";
import { HTTP_STATUS } from "../error-map.ts";
import { SANE_REQUEST_ID } from "../middleware/request-context.ts";
import { errorResponseOf } from "../response-shapes.ts";
import { ERROR_MEANINGS } from "./error-meanings.ts";
import { RECORDED_EXAMPLES } from "./examples.ts";
import { GETTING_STARTED } from "./getting-started.ts";
import type { ApiOperation, DeclaredError, Tag } from "./operation.ts";
import { OPERATIONS } from "./operations/index.ts";

export type OpenApiDocument = ReturnType<typeof createDocument>;

/** Codes any route can answer: the core unreachable or past its deadline, or a bug. */
const ALWAYS_POSSIBLE: readonly ErrorCode[] = ["processor_unavailable", "internal_error"];

const TAGS: Record<Tag, string> = {
  Payments: "Charges: create one, send the customer to its `checkout_url`, read its status.",
  Checkout: "Public routes the customer's browser uses; the payment id is the credential.",
  "Payment links": "Reusable links: merchants create and list them; the customer's browser reads and pays them.",
  Refunds: "Money given back on a captured payment.",
  Events: "What happened, as the webhooks delivered it.",
  Balance: "What the merchant holds, per currency.",
  Payouts: "Transfers of the available balance to the merchant's bank account.",
  Chargebacks: "Payments the customer disputed with their bank.",
  "Webhook endpoints": "Where your events are sent, and the secret that signs them.",
  Meta: "This description.",
};

/** `/v1/payments/:id` → `/v1/payments/{id}` */
export const openApiPath = (routerPath: string) => routerPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

function errorsOf(op: ApiOperation): Map<number, { code: ErrorCode; when: string }[]> {
  const declared: DeclaredError[] = [...(op.auth === "merchant" ? (["unauthorized"] as const) : []), ...op.errors, ...ALWAYS_POSSIBLE];
  const byStatus = new Map<number, { code: ErrorCode; when: string }[]>();
  for (const entry of declared) {
    const { code, status, when } = typeof entry === "string" ? { code: entry, status: HTTP_STATUS[entry], when: ERROR_MEANINGS[entry] } : entry;
    const list = byStatus.get(status) ?? [];
    if (!list.some((e) => e.code === code)) list.push({ code, when });
    byStatus.set(status, list);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The recorded real answers of `op` with `status`, keyed by catalog code (or "ok"), as OpenAPI examples. */
function examplesOf(op: ApiOperation, status: number) {
  const recorded = RECORDED_EXAMPLES[op.operationId]?.[String(status)];
  if (!recorded) return undefined;
  return Object.fromEntries(Object.entries(recorded).map(([name, value]) => [name, { summary: name === "ok" ? "A real answer" : name, value }]));
}

const header = (ref: string) => ({ $ref: `#/components/headers/${ref}` });

type Response = ZodOpenApiResponsesObject[`2${string}`];

function responsesOf(op: ApiOperation): ZodOpenApiResponsesObject {
  const responses: Record<string, Response> = {};
  const ok = op.response;
  if (ok.status === 302) {
    responses["302"] = { description: ok.description, headers: { Location: header("Location"), "Request-Id": header("RequestId") } };
  } else {
    responses[`${ok.status}`] = {
      description: ok.description,
      headers: { "Request-Id": header("RequestId"), ...(ok.replayable ? { "Idempotent-Replayed": header("IdempotentReplayed") } : {}) },
      content: { "application/json": { schema: ok.body, ...optional("examples", examplesOf(op, ok.status)) } },
    };
  }
  for (const [status, errors] of errorsOf(op)) {
    const codes = errors.map((e) => e.code);
    responses[`${status}`] = {
      description: errors.map((e) => `\`${e.code}\`: ${e.when}`).join("\n\n"),
      headers: {
        "Request-Id": header("RequestId"),
        // rate_limited always says when to come back; processor_unavailable does when the service is overloaded.
        ...(codes.includes("rate_limited")
          ? { "Retry-After": header("RetryAfter") }
          : codes.includes("processor_unavailable")
            ? { "Retry-After": header("RetryAfterOptional") }
            : {}),
      },
      content: {
        "application/json": {
          schema: errorResponseOf(codes as [ErrorCode, ...ErrorCode[]]),
          ...optional("examples", examplesOf(op, status)),
        },
      },
      "x-error-codes": codes,
    };
  }
  return responses;
}

const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

function operationObject(op: ApiOperation): ZodOpenApiOperationObject {
  const parameters = [
    ...(op.idempotencyKey ? [{ $ref: `#/components/parameters/${op.idempotencyKey === "required" ? "IdempotencyKey" : "IdempotencyKeyOptional"}` }] : []),
    { $ref: "#/components/parameters/RequestId" },
  ];
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    security: op.auth === "merchant" ? [{ bearerAuth: [] }] : [],
    parameters,
    ...(op.pathParams || op.query ? { requestParams: { ...optional("path", op.pathParams), ...optional("query", op.query) } } : {}),
    ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: op.body } } } } : {}),
    responses: responsesOf(op),
  };
}

/** The OpenAPI 3.1 document of `operations`, served at GET /v1/openapi.json. */
export function buildDocument(serverUrl: string, operations: readonly ApiOperation[] = OPERATIONS): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations) {
    const path = (paths[openApiPath(op.path)] ??= {});
    path[op.method] = operationObject(op);
  }
  const usedTags = [...new Set(operations.map((op) => op.tag))];
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Paytami API",
      version: "1.0.0",
      description: GETTING_STARTED,
      license: { name: "Proprietary", url: `${serverUrl}/docs` },
    },
    servers: [{ url: serverUrl, description: "This Paytami service" }],
    tags: usedTags.map((name) => ({ name, description: TAGS[name] })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "A secret API key: `sk_test_…` (test mode) or `sk_live_…` (live mode). A key sees only its merchant's objects of its own mode.",
        },
      },
      parameters: {
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: true,
          description: "One key per real attempt (a v4 UUID fits); reuse it only to retry the same request. Kept 24 h.",
          schema: { type: "string", minLength: 8, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
        },
        IdempotencyKeyOptional: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description: "Optional: a retry with the same key replays the first answer.",
          schema: { type: "string", minLength: 8, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
        },
        RequestId: {
          name: "Request-Id",
          in: "header",
          required: false,
          description: "Your id for this request, echoed back and written in Paytami's logs; one is made up when absent or not of this form.",
          schema: { type: "string", pattern: SANE_REQUEST_ID.source },
        },
      },
      headers: {
        RequestId: {
          description: "This request's id (yours when you sent a valid one): quote it to support.",
          required: true,
          schema: { type: "string", minLength: 1 },
        },
        IdempotentReplayed: {
          description: "`true` when this is the replay of the first answer to the same Idempotency-Key and request.",
          required: false,
          schema: { type: "string", enum: ["true"] },
        },
        RetryAfter: { description: "Whole seconds to wait before the next attempt.", required: true, schema: { type: "string", pattern: "^[0-9]+$" } },
        RetryAfterOptional: {
          description: "Whole seconds to wait before the next attempt, when the service knows (it is overloaded).",
          required: false,
          schema: { type: "string", pattern: "^[0-9]+$" },
        },
        Location: { description: "The hosted payment page.", required: true, schema: { type: "string", format: "uri" } },
      },
    },
  });
}
