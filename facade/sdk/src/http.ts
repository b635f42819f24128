import { isErrorCode, PaytamiConnectionError, PaytamiError } from "./errors.ts";
import { parseRetryAfter, RETRYABLE_STATUSES, retryDelayMs } from "./retry.ts";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface PaytamiOptions {
  /** Where the API is, e.g. "https://pay.example.com" (the `/v1` paths are appended). */
  baseUrl: string;
  /** Further attempts after the first for a request that got no answer, a 429 or a 503. Default 2. */
  maxRetries?: number;
  /** Milliseconds one attempt may take before it is abandoned (and retried). Default 30 000. */
  timeoutMs?: number;
  /** The longest wait between attempts the SDK accepts; a Retry-After beyond it ends the retries. Default 60 000. */
  maxRetryDelayMs?: number;
  /** The platform's fetch unless given (a proxy-aware one, a test double). */
  fetch?: FetchLike;
}

/** Per call: the Idempotency-Key to send instead of a generated one (creates and cancels only). */
export interface RequestOptions {
  idempotencyKey?: string;
}

export type Query = Record<string, string | number | undefined>;

interface Call {
  method: "GET" | "POST" | "DELETE";
  path: string;
  query?: Query | undefined;
  body?: unknown;
  /** Set on every POST: the one key all attempts of this call carry. */
  idempotencyKey?: string | undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A fresh Idempotency-Key: a v4 UUID from Web Crypto (spec §8 calls it suitable). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** Sends requests to the API with the key, retrying what is safe to retry, and turns error bodies into PaytamiError. */
export class Transport {
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #maxRetries: number;
  readonly #timeoutMs: number;
  readonly #maxRetryDelayMs: number;
  readonly #fetch: FetchLike;

  constructor(apiKey: string, options: PaytamiOptions) {
    if (typeof apiKey !== "string" || apiKey === "") throw new TypeError("Paytami: an API key (sk_test_… or sk_live_…) is required");
    if (typeof options?.baseUrl !== "string" || !/^https?:\/\//.test(options.baseUrl)) throw new TypeError("Paytami: options.baseUrl must be an http(s) URL");
    this.#apiKey = apiKey;
    this.#baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.#maxRetries = options.maxRetries ?? 2;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.#send<T>({ method: "GET", path, query });
  }

  post<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return this.#send<T>({ method: "POST", path, body, idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() });
  }

  /** DELETE: a retry after a lost answer may find the object already gone (404). */
  delete<T>(path: string): Promise<T> {
    return this.#send<T>({ method: "DELETE", path });
  }

  async #send<T>(call: Call): Promise<T> {
    const url = this.#url(call.path, call.query);
    const headers: Record<string, string> = { authorization: `Bearer ${this.#apiKey}`, accept: "application/json" };
    if (call.body !== undefined) headers["content-type"] = "application/json";
    if (call.idempotencyKey !== undefined) headers["idempotency-key"] = call.idempotencyKey;
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      let text: string;
      try {
        response = await this.#fetch(url, { method: call.method, headers, body, signal: AbortSignal.timeout(this.#timeoutMs) });
        // Read within the attempt: a connection cut after the headers is no answer either.
        text = await response.text();
      } catch (error) {
        // No answer: the request may or may not have reached the API; the same key makes a repeat safe.
        if (attempt < this.#maxRetries) {
          await sleep(retryDelayMs(attempt, undefined));
          continue;
        }
        throw new PaytamiConnectionError(`${call.method} ${call.path}: no answer from Paytami (${describe(error)})`, call.idempotencyKey, error);
      }
      if (response.ok) return JSON.parse(text) as T;
      const error = toError(response, text);
      if (RETRYABLE_STATUSES.has(response.status) && attempt < this.#maxRetries) {
        const delay = retryDelayMs(attempt, error.retryAfterSeconds);
        if (delay <= this.#maxRetryDelayMs) {
          await sleep(delay);
          continue;
        }
      }
      throw error;
    }
  }

  #url(path: string, query: Query | undefined): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(name, String(value));
    const text = search.toString();
    return `${this.#baseUrl}${path}${text ? `?${text}` : ""}`;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

/** The API's error body `{error: {code, message}}` as a PaytamiError; anything else (a proxy's page) as internal_error. */
function toError(response: Response, text: string): PaytamiError {
  const requestId = response.headers.get("request-id") ?? undefined;
  const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const error = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (error && isErrorCode(error.code) && typeof error.message === "string") {
    return new PaytamiError(error.code, error.message, response.status, requestId, retryAfter);
  }
  const code = response.status === 503 ? "processor_unavailable" : response.status === 429 ? "rate_limited" : "internal_error";
  return new PaytamiError(code, `HTTP ${response.status} without a Paytami error body: ${text.slice(0, 200)}`, response.status, requestId, retryAfter);
}
