import type { Context } from "koa";
import { PublicError } from "../public-error.ts";
import { readBodyBytes } from "./body-bytes.ts";

/**
 * Reads an HTML form's `application/x-www-form-urlencoded` body (the link page posts one), at most
 * `limitBytes`; anything else is a validation_error saying why. Broken percent-escapes decode to
 * U+FFFD, which no field of the form accepts, so nothing is silently altered into something valid.
 */
export async function readFormBody(ctx: Context, limitBytes: number): Promise<URLSearchParams> {
  if (!ctx.request.is("application/x-www-form-urlencoded"))
    throw new PublicError("validation_error", "Content-Type must be application/x-www-form-urlencoded.");
  return new URLSearchParams((await readBodyBytes(ctx, limitBytes)).toString("utf8"));
}
