import type { Router, RouterContext } from "@koa/router";
import type { CallMeta } from "../../../proto/core-client.ts";
import { readJsonBody } from "../middleware/json-body.ts";
import type { ApiOperation } from "../openapi/operation.ts";
import { PublicError } from "../public-error.ts";
import { callMeta } from "./call-meta.ts";

/**
 * What `parse` reads from the request, or, when the client sent something
 * unreadable, `malformed(reason)`: the core reports it as a validation_error
 * in its place in the check order (after the Idempotency-Key and the API key).
 */
export async function readOr<T>(parse: () => T | Promise<T>, malformed: (reason: string) => T): Promise<T> {
  try {
    return await parse();
  } catch (error) {
    if (error instanceof PublicError) return malformed(error.message);
    throw error;
  }
}

/** One POST that creates something once per Idempotency-Key (a payment, a link, a refund, a link's payment). */
export interface IdempotentPost<Req, Res extends { replayed: boolean }> {
  /** The core request from the JSON body and the key; throws PublicError when the body is unreadable. */
  read(body: unknown, idempotencyKey: string, ctx: RouterContext): Req;
  /** The core request for an unreadable body: the key, what else the route knows, and why. */
  malformed(malformedRequest: string, idempotencyKey: string, ctx: RouterContext): Req;
  create(request: Req, meta: CallMeta): Promise<Res>;
  /** The public object the core's answer holds, or its JSON bytes as the core rendered them (written through as they are). */
  json(answer: Res): unknown;
  /** Headers besides Idempotent-Replayed. */
  headers?: Readonly<Record<string, string>>;
}

/** The core request for an unreadable body when the route knows nothing else: the key, and why. */
export const keyAndReason = (malformed_request: string, idempotency_key: string) => ({ idempotency_key, malformed_request });

/**
 * Registers the declared POST `op`: the body read (or reported unreadable) with the Idempotency-Key, one core
 * call, 201 with the object, and `Idempotent-Replayed: true` when the core replayed the first answer.
 */
export function idempotentPost<Req, Res extends { replayed: boolean }>(
  router: Router,
  op: ApiOperation & { method: "post" },
  bodyLimitBytes: number,
  post: IdempotentPost<Req, Res>,
): void {
  const headers = Object.entries(post.headers ?? {});
  router.post(op.operationId, op.path, async (ctx: RouterContext) => {
    const idempotencyKey = ctx.get("Idempotency-Key");
    const request = await readOr(
      async () => post.read(await readJsonBody(ctx, bodyLimitBytes), idempotencyKey, ctx),
      (malformed) => post.malformed(malformed, idempotencyKey, ctx),
    );
    const answer = await post.create(request, callMeta(ctx));
    ctx.status = 201;
    for (const [name, value] of headers) ctx.set(name, value);
    if (answer.replayed) ctx.set("Idempotent-Replayed", "true");
    const body = post.json(answer);
    // Koa would label bytes application/octet-stream; these are the object's JSON.
    if (Buffer.isBuffer(body)) ctx.type = "application/json";
    ctx.body = body;
  });
}
