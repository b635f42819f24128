// The `ledger verify` part of `npm run bench` (issue 9): a database of its own filled with
// BENCH_LEDGER_LINES (1 000 000) realistic ledger lines (ledger-fill.ts: set-based, balanced, with
// the payments, refunds, chargebacks and payouts rows that make verify clean), vacuumed and
// analyzed; then, alternately, one sequential scan `SELECT sum(amount) FROM ledger_lines` and one
// `verifyLedger` (in this process, on the core's domain code), BENCH_LEDGER_REPS (5) times each
// after a warm-up of each; medians and their ratio (target ≤ 3×).
// Standalone: `node test/bench/ledger-verify.ts` (DATABASE_URL, or a PostgreSQL of its own).
import { isMain, runAlone, say } from "./run-alone.ts";
import pg from "pg";
import { loadConfig } from "../../core/src/config.ts";
import { migrate, openOrm } from "../../core/src/db/orm.ts";
import { OPERATOR } from "../../core/src/domain/caller.ts";
import { verifyLedger } from "../../core/src/domain/ledger-verify.ts";
import { withoutTransaction } from "../../core/src/domain/unit-of-work.ts";
import { createLogger } from "../../proto/runtime/logger.ts";
import { createDatabase, dropDatabase } from "../support/stack.ts";
import { fillLedger } from "./ledger-fill.ts";

const LINES = Number(process.env.BENCH_LEDGER_LINES ?? 1_000_000);
const REPS = Number(process.env.BENCH_LEDGER_REPS ?? 5);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export async function benchLedgerVerify(say: (msg: string) => void): Promise<string[]> {
  const adminUrl = process.env.DATABASE_URL!;
  const database = await createDatabase(adminUrl);
  const config = loadConfig({ DATABASE_URL: database.url, EMBED_TOKEN_SECRET: "bench-embed-token-secret-0123456789abcdef" });
  const orm = await openOrm({ databaseUrl: config.databaseUrl, poolSize: 2 });
  const deps = { orm, config, log: createLogger("bench"), now: () => new Date() };
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const sql = async (text: string, params: unknown[] = []) => (await client.query(text, params)).rows;
  try {
    await migrate(orm);
    say(`ledger verify: filling a database of its own with ${LINES} ledger lines`);
    const t0 = performance.now();
    const lines = await fillLedger((text, params) => sql(text, params ?? []), LINES, say);
    say(`  ${lines} lines in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    const [size] = (await sql(
      "select pg_size_pretty(pg_relation_size('ledger_lines')) as size, (select count(*) from ledger_transactions)::text as transactions, (select count(*) from payments)::text as payments",
    )) as Array<Record<string, string>>;

    const scan = async () => {
      const t = performance.now();
      await sql("SELECT sum(amount) FROM ledger_lines");
      return performance.now() - t;
    };
    const verify = async () => {
      const t = performance.now();
      const result = await withoutTransaction(deps, (tx) => verifyLedger(deps, tx, OPERATOR));
      const ms = performance.now() - t;
      if (!result.ok) throw new Error(`the bench ledger is not clean: ${JSON.stringify(result.violations.slice(0, 3))}`);
      if (result.checked.lines !== lines) throw new Error(`verify checked ${result.checked.lines} lines of ${lines}`);
      return ms;
    };
    await scan();
    await verify();
    const scans: number[] = [];
    const verifies: number[] = [];
    for (let rep = 1; rep <= REPS; rep++) {
      scans.push(await scan());
      verifies.push(await verify());
      say(`  rep ${rep}: sum(amount) ${scans.at(-1)!.toFixed(0)} ms, verify ${verifies.at(-1)!.toFixed(0)} ms`);
    }
    const ratio = median(verifies) / median(scans);
    say(`  median: sum(amount) ${median(scans).toFixed(0)} ms, verify ${median(verifies).toFixed(0)} ms, ratio ${ratio.toFixed(2)}×`);
    return [
      `\`ledger verify\` over ${lines} ledger lines (${size!.size}; ${size!.transactions} transactions, ${size!.payments} payments; test/bench/ledger-verify.ts, verifyLedger in-process on a database of its own), against one sequential scan \`SELECT sum(amount) FROM ledger_lines\`, alternately, ${REPS} times each after a warm-up (target ≤ 3×):`,
      "",
      "| | median (ms) | min (ms) | max (ms) |",
      "|---|---:|---:|---:|",
      `| SELECT sum(amount) FROM ledger_lines | ${median(scans).toFixed(0)} | ${Math.min(...scans).toFixed(0)} | ${Math.max(...scans).toFixed(0)} |`,
      `| verifyLedger | ${median(verifies).toFixed(0)} | ${Math.min(...verifies).toFixed(0)} | ${Math.max(...verifies).toFixed(0)} |`,
      "",
      `Ratio verify / scan (medians): ${ratio.toFixed(2)}×`,
      "",
    ];
  } finally {
    await client.end();
    await orm.close();
    await dropDatabase(adminUrl, database.name);
  }
}

// `node test/bench/ledger-verify.ts`: this part alone (PostgreSQL only).
if (isMain(import.meta)) await runAlone(() => benchLedgerVerify(say), { build: false, nats: false });
