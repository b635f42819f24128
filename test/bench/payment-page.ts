// The payment-page part of `npm run bench` (issue 7):
//  - first byte of GET /pay/{id} (the page a customer opens: a core call, server-rendered preact)
//    at concurrency 16, against the authenticated GET /v1/payments/{id} of the same payments
//    (a core call and JSON), run alternately in PAGE_PAIRS pairs; p50/p99 and the p99 ratio
//    page / API (target ≤ 1.5×);
//  - card-submit round trip through the page: POST /pay/{id} with the success card (facade form
//    parsing and checks, SubmitCard: claim the attempt, sandbox processor call outside any
//    transaction, record the outcome) until the 303, p50/p99 at concurrency 1 and 8.
// Both with a closed loop on node:http and a sub-millisecond timer; first byte = the response's
// status line and headers have arrived.
import * as http from "node:http";
import type { Stack } from "../support/stack.ts";
import { keepAliveAgent } from "../support/keep-alive-agent.ts";

const PAGE_SECONDS = Number(process.env.BENCH_PAGE_SECONDS ?? 8);
const PAGE_PAIRS = Number(process.env.BENCH_PAGE_PAIRS ?? 3);
const PAGE_PAYMENTS = 500;
const SUBMITS = Number(process.env.BENCH_PAGE_SUBMITS ?? 400);
const CARD_FORM = "card_number=4242+4242+4242+4242&card_expiry=12%2F30&card_cvc=123&card_name=Ana+L%C3%B3pez";

interface Latencies {
  p50: number;
  p99: number;
  perSecond: number;
  count: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

const agent = keepAliveAgent(64);

/** One request; resolves with the time to the first byte of the response and its status, after reading the body. */
function request(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; firstByteMs: number; totalMs: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? "GET", headers: opts.headers, agent }, (res) => {
      const firstByteMs = performance.now() - t0;
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, firstByteMs, totalMs: performance.now() - t0 }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** Closed loop at `concurrency` for `seconds`, each request for the next payment in turn. */
async function firstBytes(
  urlOf: (id: string) => string,
  headers: Record<string, string>,
  ids: string[],
  concurrency: number,
  seconds: number,
): Promise<Latencies> {
  const times: number[] = [];
  let next = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const r = await request(urlOf(ids[next++ % ids.length]!), { headers });
        if (r.status !== 200) throw new Error(`${urlOf("…")} answered ${r.status}`);
        times.push(r.firstByteMs);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), perSecond: times.length / ((performance.now() - started) / 1000), count: times.length };
}

async function createPayments(stack: Stack, key: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 50) {
    const chunk = await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, () =>
        stack.http.createPayment(key, {
          amount: "15050",
          currency: "GTQ",
          method_type: "card",
          description: "Camisa típica",
          success_url: "https://shop.example.com/thanks",
          cancel_url: "https://shop.example.com/cart",
        }),
      ),
    );
    for (const res of chunk) {
      if (res.status !== 201) throw new Error(`POST /v1/payments answered ${res.status}: ${res.text}`);
      ids.push(res.json.id as string);
    }
  }
  return ids;
}

async function submits(stack: Stack, ids: string[], concurrency: number): Promise<Latencies> {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        const r = await request(`${stack.baseUrl}/pay/${id}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: CARD_FORM,
        });
        if (r.status !== 303) throw new Error(`POST /pay/${id} answered ${r.status}`);
        times.push(r.totalMs);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), perSecond: times.length / ((performance.now() - started) / 1000), count: times.length };
}

/** Runs both measurements on the bench's stack; returns the report's lines. */
export async function benchPaymentPage(stack: Stack, say: (msg: string) => void): Promise<string[]> {
  const merchant = await stack.admin.createMerchant({ name: "Bench Página" });
  say(`payment page: creating ${PAGE_PAYMENTS} payments`);
  const ids = await createPayments(stack, merchant.testApiKey, PAGE_PAYMENTS);
  const page = (id: string) => `${stack.baseUrl}/pay/${id}`;
  const api = (id: string) => `${stack.baseUrl}/v1/payments/${id}`;
  const apiHeaders = { authorization: `Bearer ${merchant.testApiKey}` };
  const pageHeaders = { "accept-language": "es-GT,es;q=0.9" };
  await firstBytes(page, pageHeaders, ids, 4, 1);
  await firstBytes(api, apiHeaders, ids, 4, 1);
  const pairs: Array<{ api: Latencies; page: Latencies }> = [];
  for (let i = 0; i < PAGE_PAIRS; i++) {
    say(`payment page: pair ${i + 1}/${PAGE_PAIRS}, GET /v1/payments/{id} then GET /pay/{id}, ${PAGE_SECONDS} s each at concurrency 16`);
    const a = await firstBytes(api, apiHeaders, ids, 16, PAGE_SECONDS);
    const p = await firstBytes(page, pageHeaders, ids, 16, PAGE_SECONDS);
    say(
      `  API p50 ${a.p50.toFixed(2)} / p99 ${a.p99.toFixed(2)} ms (${a.perSecond.toFixed(0)}/s); page p50 ${p.p50.toFixed(2)} / p99 ${p.p99.toFixed(2)} ms (${p.perSecond.toFixed(0)}/s)`,
    );
    pairs.push({ api: a, page: p });
  }
  const submitIds = await createPayments(stack, merchant.testApiKey, SUBMITS);
  const half = Math.floor(submitIds.length / 4);
  say(`card submit through POST /pay/{id}: ${half} at concurrency 1, ${submitIds.length - half} at concurrency 8`);
  const s1 = await submits(stack, submitIds.slice(0, half), 1);
  const s8 = await submits(stack, submitIds.slice(half), 8);

  const lines: string[] = [];
  lines.push(
    `Payment page first byte (test/bench/payment-page.ts): GET /pay/{id} (HTML, rendered on the server) against the authenticated GET /v1/payments/{id} of the same ${PAGE_PAYMENTS} payments, concurrency 16, ${PAGE_SECONDS} s per run, alternately, node:http closed loop:`,
  );
  lines.push("");
  lines.push("| Pair | API req/s | API p50 (ms) | API p99 (ms) | Page req/s | Page p50 (ms) | Page p99 (ms) | p99 page / API |");
  lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|");
  pairs.forEach((r, i) => {
    lines.push(
      `| ${i + 1} | ${r.api.perSecond.toFixed(0)} | ${r.api.p50.toFixed(2)} | ${r.api.p99.toFixed(2)} | ${r.page.perSecond.toFixed(0)} | ${r.page.p50.toFixed(2)} | ${r.page.p99.toFixed(2)} | ${(r.page.p99 / r.api.p99).toFixed(2)}× |`,
    );
  });
  const ratio = median(pairs.map((r) => r.page.p99 / r.api.p99));
  lines.push("");
  lines.push(`Median p99 ratio page / API: **${ratio.toFixed(2)}×** (target ≤ 1.5×: ${ratio <= 1.5 ? "met" : "missed"}).`);
  lines.push("");
  lines.push("Card submit round trip through the payment page (POST /pay/{id} with the success card until the 303 to success_url):");
  lines.push("");
  lines.push("| Concurrency | Submits | Submits/s | p50 (ms) | p99 (ms) |");
  lines.push("|---:|---:|---:|---:|---:|");
  for (const [c, r] of [
    [1, s1],
    [8, s8],
  ] as const)
    lines.push(`| ${c} | ${r.count} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`);
  lines.push("");
  agent.destroy();
  return lines;
}
