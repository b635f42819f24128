import { bodyParser } from "@koa/bodyparser";
import type { Context } from "koa";
import { PublicError } from "../public-error.ts";
import type { FacadeState } from "./request-context.ts";

/** Parses JSON bodies up to `limitBytes`; a problem is kept for the route to report after authentication. */
export function jsonBody(limitBytes: number) {
  return bodyParser({
    enableTypes: ["json"],
    jsonLimit: limitBytes,
    jsonStrict: false,
    encoding: "utf-8",
    onError: (error, ctx) => {
      (ctx.state as FacadeState).bodyError = error;
    },
  });
}

/** The parsed body, or the validation_error that explains why there is none. */
export function readJsonBody(ctx: Context, limitBytes: number): unknown {
  const problem = (ctx.state as FacadeState).bodyError;
  if (problem) {
    if (problem.status === 413 || problem.type === "entity.too.large") {
      throw new PublicError("validation_error", `The body must be at most ${limitBytes / 1024} KiB.`);
    }
    throw new PublicError("validation_error", "The body is not valid JSON.");
  }
  if (!ctx.request.is("application/json")) throw new PublicError("validation_error", "Content-Type must be application/json.");
  const charset = ctx.request.charset.toLowerCase();
  if (charset && charset !== "utf-8" && charset !== "utf8") {
    throw new PublicError("validation_error", "JSON bodies must be UTF-8; remove the charset parameter or set it to utf-8.");
  }
  return ctx.request.body;
}
