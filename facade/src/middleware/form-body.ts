import type { Context } from "koa";
import { PublicError } from "../public-error.ts";

/**
 * Reads an HTML form's `application/x-www-form-urlencoded` body (the link page posts one), at most
 * `limitBytes`; anything else is a validation_error saying why. Broken percent-escapes decode to
 * U+FFFD, which no field of the form accepts, so nothing is silently altered into something valid.
 */
export async function readFormBody(ctx: Context, limitBytes: number): Promise<URLSearchParams> {
  if (!ctx.request.is("application/x-www-form-urlencoded")) throw new PublicError("validation_error", "Content-Type must be application/x-www-form-urlencoded.");
  const encoding = ctx.get("Content-Encoding").trim().toLowerCase();
  if (encoding && encoding !== "identity") throw new PublicError("validation_error", "Request bodies must not be compressed.");
  const tooLarge = () => new PublicError("validation_error", `The body must be at most ${limitBytes} bytes.`);
  if (Number(ctx.get("Content-Length") || 0) > limitBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks, size).toString("utf8"));
}
