import type { Context } from "koa";
import { PublicError } from "../public-error.ts";

// A small reader instead of a body-parser middleware: only the routes that
// take a body read one, nothing is buffered beyond the limit, and the facade
// stays inside its memory budget (co-body and its charset tables cost ~8 MB).

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads and parses the JSON body, or fails with the validation_error that says
 * why there is none: wrong Content-Type, charset or Content-Encoding, more than `limitBytes`,
 * bytes that are not UTF-8, or text that is not JSON.
 */
export async function readJsonBody(ctx: Context, limitBytes: number): Promise<unknown> {
  if (!ctx.request.is("application/json")) throw new PublicError("validation_error", "Content-Type must be application/json.");
  const charset = ctx.request.charset.toLowerCase();
  if (charset && charset !== "utf-8" && charset !== "utf8") {
    throw new PublicError("validation_error", "JSON bodies must be UTF-8; remove the charset parameter or set it to utf-8.");
  }
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
  let text: string;
  try {
    text = utf8.decode(Buffer.concat(chunks, size));
  } catch {
    throw new PublicError("validation_error", "The body is not valid UTF-8.");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new PublicError("validation_error", "The body is not valid JSON.");
  }
}
