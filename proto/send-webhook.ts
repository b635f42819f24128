// One signed webhook POST (DESIGN §4 "Webhooks"), for the dispatcher and `paytami listen`: the
// stored body byte for byte, the spec's headers, a fresh Service-Signature per attempt, no
// redirects followed (a 3xx is a failure), a deadline over the whole exchange, and only the
// destinations the mode allows (public addresses; loopback too in test mode where
// WEBHOOK_ALLOW_LOOPBACK is on), checked on the address the connection then uses (DNS rebinding).
import * as http from "node:http";
import * as https from "node:https";
import { isIP } from "node:net";
import { urlToHttpOptions } from "node:url";
import { destinationLookup, isAllowedDestination, type DestinationRule } from "./public-address.ts";
import { keepAliveOptions } from "./keep-alive.ts";
import { EXCERPT_READ_BYTES, responseExcerpt } from "./response-excerpt.ts";
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader, WEBHOOK_USER_AGENT } from "./webhook-signature.ts";
import { parseRetryAfter } from "./webhook-retry.ts";

export interface WebhookRequest {
  url: string;
  eventId: string;
  body: Buffer;
  secrets: readonly string[];
  /**
   * Where the attempt may connect (webhookDestinations: the endpoint's mode and WEBHOOK_ALLOW_LOOPBACK);
   * "any" only for `paytami listen`, which forwards to the developer's own server.
   */
  destinations: DestinationRule | "any";
  timeoutMs: number;
  /** Aborts the attempt (a dispatcher stopping). */
  signal?: AbortSignal | undefined;
}

export interface WebhookOutcome {
  attemptedAt: Date;
  /** Absent when no response came. */
  httpStatus?: number;
  error?: string;
  latencyMs: number;
  /** The start of the response body as safe text (proto/response-excerpt.ts). */
  responseExcerpt: string;
  retryAfterMs?: number;
}

// Keep-alive pools, one per destination rule: a socket opened under a looser rule (to loopback)
// must never carry a delivery of a stricter one. The checked pools only connect through their lookup.
// An idle pooled socket is closed after 30 s, or before the receiver's announced keep-alive timeout
// (proto/keep-alive.ts): a socket the receiver was closing failed its delivery with ECONNRESET, which
// then waited for its next attempt (5 s later).
const pooled = keepAliveOptions(64, 30_000);
const lookups = { public: destinationLookup("public"), "public-or-loopback": destinationLookup("public-or-loopback") };
const checkedPool = (rule: DestinationRule) => ({
  http: new http.Agent({ ...pooled, lookup: lookups[rule] }),
  https: new https.Agent({ ...pooled, lookup: lookups[rule] }),
});
const agents = {
  any: { http: new http.Agent(pooled), https: new https.Agent(pooled) },
  public: checkedPool("public"),
  "public-or-loopback": checkedPool("public-or-loopback"),
};

/**
 * How a kept-alive socket fails when the receiver closed it while it waited in the pool: the request
 * never reached the receiver's application (no byte of a response came), so it is sent again at once,
 * once, on a connection of its own (another pooled socket may be just as old). Receivers that announce
 * no keep-alive timeout (nginx, most proxies) close idle connections all the same.
 */
const STALE_SOCKET_ERRORS = new Set(["ECONNRESET", "EPIPE"]);

/**
 * Each endpoint URL parsed once into request options (not once per attempt), or why it cannot be
 * sent to. Bounded: past TARGETS_KEPT distinct URLs it starts over.
 */
const targets = new Map<string, http.RequestOptions | string>();
const TARGETS_KEPT = 1_000;

function targetOf(raw: string): http.RequestOptions | string {
  let target = targets.get(raw);
  if (target === undefined) {
    try {
      const url = new URL(raw);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`unsupported scheme ${url.protocol}`);
      target = urlToHttpOptions(url);
    } catch (error) {
      target = `invalid URL: ${(error as Error).message}`;
    }
    if (targets.size >= TARGETS_KEPT) targets.clear();
    targets.set(raw, target);
  }
  return target;
}

function describe(error: NodeJS.ErrnoException): string {
  if (error.name === "NonPublicAddressError") return error.message;
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

export function sendWebhook(request: WebhookRequest): Promise<WebhookOutcome> {
  const attemptedAt = new Date();
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const target = targetOf(request.url);
    if (typeof target === "string") {
      resolve({ attemptedAt, error: target, latencyMs: 0, responseExcerpt: "" });
      return;
    }
    // An address literal is connected to without any lookup, so it is checked here (urlToHttpOptions took its brackets off).
    const literal = target.hostname ?? "";
    const rule = request.destinations;
    if (rule !== "any" && isIP(literal) !== 0 && !isAllowedDestination(literal, rule)) {
      resolve({ attemptedAt, error: `${literal} is not a public address.`, latencyMs: 0, responseExcerpt: "" });
      return;
    }
    const pool = agents[rule];
    const secure = target.protocol === "https:";
    const transport = secure ? https : http;
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    let settled = false;
    const finish = (outcome: Omit<WebhookOutcome, "attemptedAt">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      resolve({ attemptedAt, ...outcome });
    };
    let req: http.ClientRequest;
    const timer = setTimeout(() => {
      finish({ error: `no response within ${request.timeoutMs} ms`, latencyMs: latency(), responseExcerpt: "" });
      req.destroy();
    }, request.timeoutMs);
    const onAbort = () => {
      finish({ error: "aborted: the dispatcher is stopping", latencyMs: latency(), responseExcerpt: "" });
      req.destroy();
    };
    request.signal?.addEventListener("abort", onAbort, { once: true });
    const post = (fresh: boolean) => {
      req = transport.request({
        ...target,
        method: "POST",
        // A fresh connection is not pooled (it closes after its response); the pool's own sockets are reused.
        agent: fresh ? false : secure ? pool.https : pool.http,
        ...(rule !== "any" ? { lookup: lookups[rule] } : {}),
        headers: {
          "content-type": "application/json",
          "content-length": request.body.length,
          "user-agent": WEBHOOK_USER_AGENT,
          [EVENT_ID_HEADER]: request.eventId,
          [SIGNATURE_HEADER]: signatureHeader(request.secrets, timestamp, request.body),
        },
      });
      const sent = req;
      let responded = false;
      sent.on("error", (error: NodeJS.ErrnoException) => {
        if (!settled && !responded && !fresh && sent.reusedSocket && STALE_SOCKET_ERRORS.has(error.code ?? "")) post(true);
        else finish({ error: describe(error), latencyMs: latency(), responseExcerpt: "" });
      });
      sent.on("response", (res) => {
        responded = true;
        const status = res.statusCode ?? 0;
        const latencyMs = latency();
        const retryAfterMs = parseRetryAfter(res.headers["retry-after"], Date.now());
        // Only what an excerpt can hold is read: once that much has arrived the connection is closed
        // rather than drained, so a receiver's large or endless body costs a few KiB and no more time.
        const chunks: Buffer[] = [];
        let size = 0;
        const done = (complete: boolean) => {
          const excerpt = responseExcerpt(Buffer.concat(chunks, Math.min(size, EXCERPT_READ_BYTES)), complete);
          finish({ httpStatus: status, latencyMs, responseExcerpt: excerpt, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
        };
        res.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= EXCERPT_READ_BYTES) {
            done(false);
            res.destroy();
          }
        });
        res.on("end", () => done(true));
        res.on("error", () => done(false));
        res.on("close", () => done(false));
      });
      sent.end(request.body);
    };
    post(false);
  });
}
