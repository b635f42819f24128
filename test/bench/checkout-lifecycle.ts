// The checkout-lifecycle part of `npm run bench` (issue 7):
//  - card-submit round trip: CheckoutService.SubmitCard through gRPC with the success card, as the
//    facade's payment page calls it (claim the attempt, sandbox processor call with no transaction
//    open, record the outcome), p50/p99 at concurrency 1 and 8;
//  - settlement with SETTLE_BACKLOG (100 000) captured payments waiting: the settlement job's
//    set-based claims (core/src/jobs/settle-payments.ts, in this process on the same database, with
//    the core's default batch, on a database of its own) against one bulk UPDATE of the same rows, alternately, the rows reset
//    and vacuumed before each run; payments moved per second and the ratio (target ≥ 0.5×).
// No lock is held across a processor call: the attempt is claimed in one transaction and recorded
// in another (core/src/domain/checkout-attempts.ts; tested in checkout-attempts.test.ts).
import { loadConfig } from "../../core/src/config.ts";
import { migrate, openOrm } from "../../core/src/db/orm.ts";
import { settleDuePayments } from "../../core/src/jobs/settle-payments.ts";
import { createLogger } from "../../proto/runtime/logger.ts";
import { createDatabase, dropDatabase, type Stack } from "../support/stack.ts";

const SETTLE_BACKLOG = Number(process.env.BENCH_SETTLE_BACKLOG ?? 100_000);
const SUBMITS = Number(process.env.BENCH_SUBMITS ?? 1_000);
const SETTLE_PAIRS = Number(process.env.BENCH_SETTLE_PAIRS ?? 3);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function createPayments(stack: Stack, key: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 50) {
    const chunk = await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, () =>
        stack.http.createPayment(key, {
          amount: "12345",
          currency: "GTQ",
          method_type: "card",
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

async function submitRun(stack: Stack, ids: string[], concurrency: number): Promise<{ p50: number; p99: number; perSecond: number }> {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        const t = performance.now();
        const out = await stack.core.checkout.submitCard({
          payment_id: id,
          card: { number: "4242424242424242", exp_month: 12, exp_year: 2031, cvc: "123", holder_name: "Ana López" },
        });
        times.push(performance.now() - t);
        if (out.card_last4 !== "4242") throw new Error("SubmitCard did not charge the card");
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), perSecond: ids.length / elapsed };
}

export async function benchCheckoutLifecycle(stack: Stack, say: (msg: string) => void): Promise<string[]> {
  const lines: string[] = [];
  const merchant = await stack.admin.createMerchant({ name: "Bench Checkout" });

  say(`card submit: ${SUBMITS} payments at concurrency 1 and ${SUBMITS} at 8, through gRPC SubmitCard`);
  const submitRows: string[] = [];
  await submitRun(stack, await createPayments(stack, merchant.testApiKey, 100), 4); // warm-up
  for (const c of [1, 8]) {
    const r = await submitRun(stack, await createPayments(stack, merchant.testApiKey, SUBMITS), c);
    say(`  c=${c}: ${r.perSecond.toFixed(0)} submits/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`);
    submitRows.push(`| ${c} | ${SUBMITS} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`);
  }
  lines.push(
    "Card submit round trip (gRPC `CheckoutService.SubmitCard` with the success card, as the payment page calls it: claim, sandbox processor call outside any transaction, record; each a fresh payment):",
  );
  lines.push("");
  lines.push("| Concurrency | Submits | Submits/s | p50 (ms) | p99 (ms) |");
  lines.push("|---:|---:|---:|---:|---:|");
  lines.push(...submitRows, "");

  // A database of its own, so that only the backlog is due (the stack's database holds the list
  // benchmark's captured payments and the submits above) and no core touches it meanwhile.
  const adminUrl = process.env.DATABASE_URL!;
  const database = await createDatabase(adminUrl);
  const config = loadConfig({ DATABASE_URL: database.url, EMBED_TOKEN_SECRET: "bench-embed-token-secret-0123456789abcdef", SETTLEMENT_DELAYS: "1s,1s,1s" });
  const orm = await openOrm({ databaseUrl: config.databaseUrl, poolSize: 2 });
  await migrate(orm);
  const deps = { orm, config, log: createLogger("bench"), now: () => new Date() };
  const sql = (text: string, params: unknown[] = []) => orm.em.fork().getConnection().execute(text, params);
  say(`settlement: inserting ${SETTLE_BACKLOG} captured payments into a database of their own`);
  await sql(
    "INSERT INTO merchants (id, name, trade_name, currencies, methods, created_at) VALUES ('mer_bench00000000000000000000', 'Bench', 'Bench', '{GTQ}', '{card}', now())",
  );
  await sql(
    `INSERT INTO payments (id, merchant_id, mode, status, currency, method_type, amount, service_fee, net_amount, success_url, cancel_url,
                           created_at, updated_at, expires_at, authorized_at, captured_at)
     SELECT 'pay_' || substr(md5(random()::text || g::text), 1, 24), 'mer_bench00000000000000000000', 'test', 'captured', 'GTQ', 'card', 12345, 632, 11713,
            'https://shop.example.com/thanks', 'https://shop.example.com/cart', t, t, t + interval '24 hours', t, t
       FROM generate_series(1, ?::int) g, LATERAL (SELECT now() - interval '30 minutes' + g * interval '1 ms' AS t) ts`,
    [SETTLE_BACKLOG],
  );
  // Each pair settles the same backlog again: its payments go back to captured, and the ledger (which
  // records each settlement step of a payment once, append-only) is emptied. Its own database, so TRUNCATE.
  const reset = async () => {
    await sql("TRUNCATE ledger_lines, ledger_transactions");
    await sql("UPDATE payments SET status = 'captured', pending_settlement_at = NULL");
    await sql("VACUUM ANALYZE payments");
  };
  const rows: string[] = [];
  const ratios: number[] = [];
  try {
    for (let pair = 1; pair <= SETTLE_PAIRS; pair++) {
      await reset();
      let t = performance.now();
      const bulk = (await sql(
        "UPDATE payments SET status = 'pending_settlement', pending_settlement_at = now(), updated_at = now() WHERE status = 'captured' RETURNING id",
      )) as unknown[];
      const bulkSeconds = (performance.now() - t) / 1000;
      await reset();
      t = performance.now();
      const tally = await settleDuePayments(deps, config.jobs.settlePayments);
      const jobSeconds = (performance.now() - t) / 1000;
      const moved = tally.pending_settlement ?? 0;
      if (moved !== SETTLE_BACKLOG || bulk.length !== SETTLE_BACKLOG)
        throw new Error(`settlement moved ${moved}, the bulk UPDATE ${bulk.length}; expected ${SETTLE_BACKLOG}`);
      const ratio = moved / jobSeconds / (bulk.length / bulkSeconds);
      ratios.push(ratio);
      say(
        `  pair ${pair}: bulk UPDATE ${(bulk.length / bulkSeconds).toFixed(0)} rows/s, job ${(moved / jobSeconds).toFixed(0)} payments/s (${ratio.toFixed(2)}×)`,
      );
      rows.push(
        `| ${pair} | ${SETTLE_BACKLOG} | ${bulkSeconds.toFixed(2)} | ${(bulk.length / bulkSeconds).toFixed(0)} | ${jobSeconds.toFixed(2)} | ${(moved / jobSeconds).toFixed(0)} | ${Math.ceil(moved / config.jobs.settlePayments.batch)} | ${ratio.toFixed(2)}× |`,
      );
    }
  } finally {
    await orm.close();
    await dropDatabase(adminUrl, database.name);
  }
  const middle = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
  lines.push(
    `Settlement, captured → pending_settlement with ${SETTLE_BACKLOG.toLocaleString("en-US")} payments waiting: the job's claims (batch ${config.jobs.settlePayments.batch}, each one \`UPDATE … FROM (due rows FOR UPDATE SKIP LOCKED) … RETURNING\` in its own transaction) against one bulk \`UPDATE\` of the same rows, alternately, rows reset and vacuumed before each run:`,
  );
  lines.push("");
  lines.push("| Pair | Payments | Bulk UPDATE (s) | Bulk rows/s | Job (s) | Job payments/s | Claims | Job / bulk |");
  lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|");
  lines.push(...rows, "");
  lines.push(
    `Settlement throughput ${middle.toFixed(2)}× one bulk UPDATE (median of ${ratios.length} pairs, range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×; target ≥ 0.50×: ${middle >= 0.5 ? "met" : "missed"}).`,
  );
  lines.push("");
  return lines;
}
