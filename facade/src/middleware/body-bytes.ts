import type { Context } from "koa";
import { PublicError } from "../public-error.ts";

/**
 * The request body's bytes, at most `limitBytes`, uncompressed: a body over the limit is refused as
 * soon as it is known to be (by Content-Length or while reading), so nothing is buffered beyond it.
 */
export async function readBodyBytes(ctx: Context, limitBytes: number): Promise<Buffer> {
  const encoding = ctx.get("Content-Encoding").trim().toLowerCase();
  if (encoding && encoding !== "identity") {
    throw new PublicError("validation_error", "Request bodies must not be compressed (Content-Encoding is not accepted).");
  }
  const tooLarge = () => new PublicError("validation_error", `The body must be at most ${limitBytes / 1024} KiB.`);
  if (Number(ctx.get("Content-Length") || 0) > limitBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) throw tooLarge();
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks, size);
  // For the request-log recorder (request-logs/recorder.ts), which redacts it after the response.
  (ctx.state as { requestBody?: Buffer }).requestBody = body;
  return body;
}
