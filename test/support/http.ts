// Minimal HTTP client for the tests, on node:http so that the test controls every
// byte: no automatic Content-Type, no redirect following, raw header values.

import * as http from "node:http";
import { randomUUID } from "node:crypto";
import { keepAliveAgent } from "./keep-alive-agent.ts";
import { checkConformance } from "./openapi-conformance.ts";

export interface Res {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Single header value (joined with ", " when repeated), or undefined. */
  header(name: string): string | undefined;
  /** Raw body as text (utf-8). */
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: any;
  /** Round-trip time in ms. */
  ms: number;
}

export interface ReqOptions {
  headers?: Record<string, string | undefined>;
  /** Object → JSON with Content-Type application/json; string/Buffer → sent as is (no Content-Type unless given). */
  body?: unknown;
  /** Bearer API key. */
  key?: string;
  /** Idempotency-Key header. */
  idem?: string;
  timeoutMs?: number;
}

const agent = keepAliveAgent(256);

/** Every 5xx any test in this worker received (checked after each file by useStack). */
export const serverErrors: Array<{ method: string; url: string; status: number; body: string }> = [];

function rawRequest(url: string, method: string, headers: Record<string, string>, body: Buffer | undefined, timeoutMs = 30_000): Promise<Res> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const text = raw.toString("utf8");
        let json: any;
        try {
          json = text.length ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        const hs = res.headers;
        if ((res.statusCode ?? 0) >= 500) serverErrors.push({ method, url, status: res.statusCode ?? 0, body: text.slice(0, 300) });
        const single = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(", ") : v);
        checkConformance({
          method,
          url,
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(Object.entries(hs).map(([k, v]) => [k, single(v)])),
          body: text,
        });
        resolve({
          status: res.statusCode ?? 0,
          headers: hs,
          header: (name: string) => {
            const v = hs[name.toLowerCase()];
            return Array.isArray(v) ? v.join(", ") : v;
          },
          text,
          json,
          ms: performance.now() - t0,
        });
      });
    });
    req.on("timeout", () => req.destroy(new Error(`${method} ${url} timed out after ${timeoutMs} ms`)));
    req.on("error", reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

export function newIdemKey(): string {
  return randomUUID();
}

export class HttpClient {
  readonly baseUrl: string;
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  request(method: string, path: string, opts: ReqOptions = {}): Promise<Res> {
    const headers: Record<string, string> = {};
    let body: Buffer | undefined;
    if (opts.body !== undefined) {
      if (Buffer.isBuffer(opts.body)) body = opts.body;
      else if (typeof opts.body === "string") body = Buffer.from(opts.body, "utf8");
      else {
        body = Buffer.from(JSON.stringify(opts.body), "utf8");
        headers["content-type"] = "application/json";
      }
    }
    if (opts.key !== undefined) headers["authorization"] = `Bearer ${opts.key}`;
    if (opts.idem !== undefined) headers["idempotency-key"] = opts.idem;
    for (const [k, v] of Object.entries(opts.headers ?? {})) {
      const lk = k.toLowerCase();
      if (v === undefined) delete headers[lk];
      else headers[lk] = v;
    }
    return rawRequest(this.baseUrl + path, method, headers, body, opts.timeoutMs);
  }

  get(path: string, opts: ReqOptions = {}): Promise<Res> {
    return this.request("GET", path, opts);
  }

  post(path: string, opts: ReqOptions = {}): Promise<Res> {
    return this.request("POST", path, opts);
  }

  /** POST /v1/payments with a fresh Idempotency-Key unless one is given. */
  createPayment(key: string | undefined, body: unknown, opts: Omit<ReqOptions, "body" | "key"> = {}): Promise<Res> {
    return this.post("/v1/payments", { ...opts, body, key, idem: opts.idem ?? newIdemKey() });
  }

  getPayment(key: string | undefined, id: string, opts: ReqOptions = {}): Promise<Res> {
    return this.get(`/v1/payments/${id}`, { ...opts, key });
  }

  listPayments(key: string | undefined, query: Record<string, string> | string = {}, opts: ReqOptions = {}): Promise<Res> {
    const qs = typeof query === "string" ? query : new URLSearchParams(query).toString();
    return this.get(`/v1/payments${qs ? "?" + qs : ""}`, { ...opts, key });
  }
}
