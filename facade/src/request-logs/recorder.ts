import type { Context, Next } from "koa";
import { apiKeyDigest } from "../../../proto/api-key-digest.ts";
import type { RequestLogRecord } from "../../../proto/request-log.ts";
import { afterResponse } from "../middleware/after-response.ts";
import type { FacadeState } from "../middleware/request-context.ts";
import type { LogBuffer } from "./log-buffer.ts";
import { storedBody } from "./redact.ts";

// The facade's request-log recorder (issue 17 item 4). Off the request path: the middleware only
// notes what it saw; the entry joins the buffer when the response has been sent, and redaction,
// serialisation and the publish happen at flush time, batched, on the publisher's thread
// (publisher.ts, publisher-thread.ts).

const MERCHANT_KEY = /^Bearer (sk_(?:test|live)_[0-9A-Za-z]{32})$/;

/** What one request left behind, as cheap to take as possible: the bodies are references. */
export interface CapturedRequest {
  at: number;
  apiKey: string;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  requestId: string;
  idempotencyKey: string | null;
  replayed: boolean;
  clientIp: string | null;
  requestBody: Buffer | undefined;
  responseBody: unknown;
}

/** Where a route's body reader leaves the bytes it read, for the recorder (body-bytes.ts). */
export interface RecordedBodyState {
  requestBody?: Buffer;
}

/**
 * Records each `/v1` request that presents a merchant API key in form (`Bearer sk_…`). The core
 * keeps those whose key it knows (revoked and expired ones included, so a 401 of a known key is
 * logged with its key id); a request without a key has no merchant to show it to and is not recorded.
 */
export function recordRequests(buffer: LogBuffer<CapturedRequest>) {
  return async (ctx: Context, next: Next) => {
    const apiKey = ctx.path.startsWith("/v1/") ? MERCHANT_KEY.exec(ctx.get("Authorization"))?.[1] : undefined;
    if (!apiKey) {
      await next();
      return;
    }
    const at = Date.now();
    const started = performance.now();
    await next();
    // After the response is sent (or the client went away): nothing here delays the answer.
    afterResponse(ctx.res, () => {
      buffer.add({
        at,
        apiKey,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        latencyMs: Math.round(performance.now() - started),
        requestId: (ctx.state as FacadeState).requestId,
        idempotencyKey: ctx.get("Idempotency-Key") || null,
        replayed: ctx.response.get("Idempotent-Replayed") === "true",
        clientIp: ctx.ip || null,
        requestBody: (ctx.state as RecordedBodyState).requestBody,
        responseBody: ctx.body,
      });
    });
  };
}

// A key's digest is the same every time; a facade sees few keys, each many times. Bounded all the same.
const DIGESTS_KEPT = 1_000;
const digests = new Map<string, string>();
function digestOf(apiKey: string): string {
  let digest = digests.get(apiKey);
  if (digest === undefined) {
    if (digests.size >= DIGESTS_KEPT) digests.clear();
    digest = apiKeyDigest(apiKey);
    digests.set(apiKey, digest);
  }
  return digest;
}

const clip = (text: string | null, max: number) => (text === null ? null : text.slice(0, max));

/** The wire record of a captured request: the key turned into its digest, the bodies redacted and capped. */
export function toRecord(captured: CapturedRequest, bodyCapBytes: number): RequestLogRecord {
  const body = captured.responseBody;
  const error = body !== null && typeof body === "object" && "error" in body ? (body as { error?: { code?: unknown } }).error : undefined;
  return {
    at: new Date(captured.at).toISOString(),
    key_digest: digestOf(captured.apiKey),
    method: captured.method as RequestLogRecord["method"],
    path: clip(captured.path, 2048)!,
    status: captured.status,
    code: typeof error?.code === "string" ? error.code.slice(0, 64) : null,
    latency_ms: captured.latencyMs,
    request_id: captured.requestId,
    idempotency_key: clip(captured.idempotencyKey, 255),
    replayed: captured.replayed,
    client_ip: clip(captured.clientIp, 64),
    request_body: storedBody(captured.requestBody, bodyCapBytes),
    response_body: storedBody(body, bodyCapBytes),
  };
}
