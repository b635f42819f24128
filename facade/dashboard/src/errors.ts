import { TRPCClientError } from "@trpc/client";
import type { ShellMessages } from "./i18n/messages/shell.ts";
import { waitText, type Lang } from "./i18n/messages.ts";
import { httpStatusOf } from "./trpc.ts";

/** The catalog code (proto/error-catalog.ts) a failed call carried, as the core's errorFormatter puts it. */
export function catalogCode(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const code = (error.data as { paytami_code?: unknown } | undefined)?.paytami_code;
  return typeof code === "string" ? code : undefined;
}

/** Seconds to wait after a rate_limited answer: the core's Retry-After (or the value in data when it sends one). */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const fromData = (error.data as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
  if (typeof fromData === "number" && fromData > 0) return Math.ceil(fromData);
  const response = (error.meta as { response?: Response } | undefined)?.response;
  const header = Number(response?.headers.get("retry-after"));
  return Number.isFinite(header) && header > 0 ? Math.ceil(header) : undefined;
}

/**
 * What to tell the user about a failed call: the shared cases (unavailable, role, throttled) in the
 * shell's words, a catalog error's own message otherwise (the core writes them for people: input
 * problems say what is wrong), a generic sentence for anything else.
 */
export function errorText(error: unknown, m: ShellMessages, lang: Lang): string {
  const code = catalogCode(error);
  if (code === "rate_limited") return m.errors.rateLimited(waitText[lang](retryAfterSeconds(error) ?? 60));
  if (code === "processor_unavailable" || code === "internal_error") return m.errors.unavailable;
  // 401: no (longer a) session; 403: the session's role may not do this.
  if (code === "unauthorized") return httpStatusOf(error) === 401 ? m.errors.sessionEnded : m.errors.forbidden;
  if (code && error instanceof Error && error.message) return error.message;
  if (error instanceof TRPCClientError && !code) return m.errors.unavailable;
  return m.errors.generic;
}
