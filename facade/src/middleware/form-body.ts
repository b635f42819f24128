import type { Context } from "koa";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The fields of a hosted page's form post (application/x-www-form-urlencoded, at most `limitBytes`).
 * A body that is not such a form reads as no fields at all: the page then asks for them again,
 * which is all a customer's browser needs to hear. The body is never logged.
 */
export async function readFormBody(ctx: Context, limitBytes: number): Promise<URLSearchParams> {
  if (!ctx.request.is("application/x-www-form-urlencoded")) return new URLSearchParams();
  if (Number(ctx.get("Content-Length") || 0) > limitBytes) return new URLSearchParams();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) return new URLSearchParams();
    chunks.push(chunk);
  }
  try {
    return new URLSearchParams(utf8.decode(Buffer.concat(chunks, size)));
  } catch {
    return new URLSearchParams();
  }
}
