import { randomInt } from "node:crypto";
import { sql } from "kysely";
import { db } from "../db/orm.ts";
import type { OperatorCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { MERCHANT_ACCOUNTS, type Balance } from "./ledger.ts";
import type { Tx } from "./unit-of-work.ts";

// `paytami ledger verify`: every invariant of the ledger (README "Ledger"), checked against one
// snapshot of the database, in one pass over each large table whatever its size:
//   1. ledger_lines (no grouping): a fingerprint of Σ lines per transaction and currency, one of the
//      platform_cash credits of refunds and opened chargebacks, and the merchant accounts' total;
//   2. ledger_transactions: a fingerprint of the (payment, kind) pairs of captures and settlement
//      steps; refund and chargeback transactions (through their unique indexes) with the amounts of
//      their rows;
//   3. payments: the same (payment, stamp) pairs, net per merchant, mode and currency; the payments
//      whose status says refunded, each against its refunds (exact);
//   4. the balances per merchant, mode and currency, each an index-only sum of its own lines (as the
//      service's merchantBalances sums them), with the refunds, chargebacks and payouts tables' totals.
// Grouping a million lines per transaction or per payment costs several scans (hash tables of
// hundreds of thousands of groups), so those equalities are compared as fingerprints: sums of
// seeded hashes, with a fresh random seed each run. Equal sets give equal fingerprints; a difference
// goes unnoticed with probability about 2^-31 (amount sums) or 2^-64 (sets of ids).
// When a fingerprint differs, the exact query of that invariant runs and names the transactions,
// payments, refunds or chargebacks. Everything per merchant, mode and currency is exact.

/** One broken invariant: which, the objects it concerns, what it should be and what it is. */
export interface LedgerViolation {
  invariant: LedgerInvariant;
  transaction_id?: string;
  payment_id?: string;
  refund_id?: string;
  chargeback_id?: string;
  merchant_id?: string;
  mode?: string;
  currency?: string;
  account?: string;
  expected: string;
  actual: string;
  message: string;
}

export type LedgerInvariant =
  | "transaction_balanced"
  | "payment_has_movement"
  | "movement_has_payment"
  | "balances_equal_lines"
  | "refund_has_movement"
  | "chargeback_has_movement"
  | "refundable_remainder"
  | "available_not_negative"
  | "merchant_total";

export interface LedgerChecked {
  transactions: number;
  lines: number;
  payments: number;
  captured_payments: number;
  refunds: number;
  chargebacks: number;
  payouts: number;
  /** (merchant, mode, currency) balances checked. */
  balances: number;
}

export type LedgerVerification = { ok: true; checked: LedgerChecked } | { ok: false; checked: LedgerChecked; violations: LedgerViolation[] };

/** At most this many violations of one invariant are listed (the first ones, by id). */
const VIOLATIONS_PER_INVARIANT = 100;

/** PostgreSQL's SQLSTATE for an int8 product out of range (a fingerprint term of an amount of 2^32 or more). */
const NUMERIC_VALUE_OUT_OF_RANGE = "22003";

/** The payment stamps that each require exactly one ledger transaction of their kind, and no such transaction without it. */
const STAMP_KINDS = [
  { stamp: "captured_at", kind: "capture" },
  { stamp: "pending_settlement_at", kind: "settlement_batch" },
  { stamp: "settled_to_paytami_at", kind: "funds_received" },
] as const;

const MERCHANT_ACCOUNT_LIST = sql.raw(`('merchant_pending', 'merchant_available', 'merchant_in_transit')`);

const groupKey = (g: { merchant_id: string; mode: string; currency: string }) => `${g.merchant_id}\u0000${g.mode}\u0000${g.currency}`;

interface GroupFacts extends Omit<Balance, "currency"> {
  merchant_id: string;
  mode: string;
  currency: string;
  net: bigint;
  refunds: bigint;
  open_chargebacks: bigint;
  open_chargeback_count: number;
  completed_payouts: bigint;
}

type Row = Record<string, string | null>;
const big = (value: string | null | undefined) => BigInt(value ?? "0");
const sumOf = (rows: readonly Row[], column: string) => rows.reduce((sum, row) => sum + big(row[column]), 0n);

/**
 * Checks every ledger invariant and answers `{ok: true, checked}` or the violations (the first
 * 100 of each kind). When `tx` is no transaction, the passes run in two REPEATABLE READ, READ ONLY
 * transactions on two connections sharing one exported snapshot (like PostgreSQL's own parallel
 * workers), so a verify next to live traffic sees one consistent state and uses both cores; inside a
 * caller's transaction they run one after another in it.
 */
export async function verifyLedger(deps: CoreDeps, tx: Tx, caller: OperatorCaller): Promise<LedgerVerification> {
  void caller;
  const seed = BigInt(randomInt(1, 2 ** 47));
  if (tx.isInTransaction()) {
    const [first, second] = [await firstHalf(tx, seed), await secondHalf(tx, seed)];
    return judge(tx, first, second);
  }
  const snapshot = { isolationLevel: "repeatable read", readOnly: true } as const;
  return tx.transactional(async (main) => {
    const id = (await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(db(main))).rows[0]!.id;
    const [first, second] = await Promise.all([
      firstHalf(main, seed),
      deps.orm.em.fork().transactional(async (other) => {
        await sql`set transaction snapshot ${sql.lit(id)}`.execute(db(other));
        return secondHalf(other, seed);
      }, snapshot),
    ]);
    return judge(main, first, second);
  }, snapshot);
}

// Amount sums are fingerprinted as Σ amount·w, summed exactly (int8 products, a 128-bit sum), with w
// the top 32 bits of a seeded 64-bit hash made odd: never zero, so one transaction that does not sum
// to zero always changes the fingerprint, whatever the amount, and several cancel out with
// probability 2^-31 at most (at most one of the 2^31 odd values of one w does it). An amount of 2^32
// or more can overflow its product: that statement then fails, and the exact queries decide instead.
const weight = (seed: bigint, column: string, salt: number) => `((hashint8extended(${column}, ${seed + BigInt(salt)}) >> 32) | 1)`;
const idHash = (seed: bigint, column: string, salt: number) => sql.raw(`hashtextextended(${column}, ${seed + BigInt(salt)})`);

/**
 * The first row of a fingerprint query, or null when one of its int8 products overflowed: the
 * statement runs under a savepoint so the transaction (and its snapshot) goes on without it.
 */
async function unlessOverflow(tx: Tx, query: ReturnType<typeof sql<Row>>): Promise<Row | null> {
  const q = db(tx);
  await sql`savepoint ledger_fingerprint`.execute(q);
  try {
    const row = (await query.execute(q)).rows[0]!;
    await sql`release savepoint ledger_fingerprint`.execute(q);
    return row;
  } catch (error) {
    if (!isOverflow(error)) throw error;
    await sql`rollback to savepoint ledger_fingerprint`.execute(q);
    return null;
  }
}

const isOverflow = (error: unknown): boolean =>
  typeof error === "object" && error !== null
  && ((error as { code?: unknown }).code === NUMERIC_VALUE_OUT_OF_RANGE || isOverflow((error as { cause?: unknown }).cause));

type Balances = Array<{ merchant_id: string; mode: string; currency: string; pending: string; available: string; in_transit: string }>;

/** Passes 1 and 2: the lines, the transactions, the refund and chargeback credits. */
async function firstHalf(tx: Tx, seed: bigint): Promise<{ lines: Row; movements: Row; credited: Row }> {
  const q = db(tx);
  // 1: the pass over ledger_lines. Σ amount·weight(transaction, currency) is 0 when every
  // transaction sums to zero in each currency. The platform_cash credits on payments are what
  // refunds and opened chargebacks took; the merchant accounts' total is what the balances must sum to.
  // The currency's hash goes into the seed, so each (transaction, currency) gets its own weight:
  // xor-ing hashtext (int4, sign-extended) into the hash would leave the top 32 bits equal for any
  // two currencies whose hashes have the same sign (GTQ and EUR), and lines moved between them unseen.
  const lineWeight = sql.raw(`amount * ((hashint8extended(transaction_id, ${seed} + hashtext(currency)) >> 32) | 1)`);
  const creditWeight = sql.raw(`amount * ${weight(seed, "transaction_id", 1)}`);
  const lines = (await unlessOverflow(tx, sql<Row>`
      select count(*)::text as lines, sum(${lineWeight})::text as f,
             sum(${creditWeight}) filter (where amount > 0 and account = 'platform_cash' and payment_id is not null)::text as credits,
             sum(amount) filter (where account like 'merchant%')::text as merchant_total
      from ledger_lines`))
    ?? (await sql<Row>`
      select count(*)::text as lines, null as f, null as credits, sum(amount) filter (where account like 'merchant%')::text as merchant_total
      from ledger_lines`.execute(q)).rows[0]!;
  // 2: the pass over ledger_transactions; then the credits refund and chargeback transactions should
  // have made, from their rows (found through their unique indexes: no scan).
  const movements = (
    await sql<Row>`
      select count(*)::text as transactions,
             ${sql.join(STAMP_KINDS.map((s, k) => sql`sum(${idHash(seed, "payment_id", 10 + k)}) filter (where kind = ${s.kind})::text as ${sql.ref(`k${k}`)}`), sql`, `)}
      from ledger_transactions`.execute(q)
  ).rows[0]!;
  const creditedQuery = (credits: boolean) => sql<Row>`
      with refund_moves as (
        select count(*) as transactions, count(r.id) as joined, ${credits ? sql`sum(r.amount * ${sql.raw(weight(seed, "t.id", 1))})` : sql`null::numeric`} as credits
        from ledger_transactions t left join refunds r on r.id = t.refund_id and r.payment_id = t.payment_id
        where t.refund_id is not null and t.kind = 'refund'
      ), chargeback_moves as (
        select count(*) as transactions, count(c.id) as joined, ${credits ? sql`sum(c.amount * ${sql.raw(weight(seed, "t.id", 1))})` : sql`null::numeric`} as credits
        from ledger_transactions t left join chargebacks c on c.id = t.chargeback_id and c.payment_id = t.payment_id
        where t.chargeback_id is not null and t.kind = 'chargeback_opened'
      )
      select (select count(*) from refunds)::text as refund_rows, (select count(*) from chargebacks)::text as chargeback_rows,
             rm.transactions::text as refund_transactions, rm.joined::text as refunds_joined,
             cm.transactions::text as chargeback_transactions, cm.joined::text as chargebacks_joined,
             ${credits ? sql`(coalesce(rm.credits, 0) + coalesce(cm.credits, 0))::text` : sql`null`} as credits
      from refund_moves rm, chargeback_moves cm`;
  const credited = (await unlessOverflow(tx, creditedQuery(true))) ?? (await creditedQuery(false).execute(q)).rows[0]!;
  return { lines, movements, credited };
}

/** Passes 3 and 4: the payments and their refunds, the balances, the other tables' totals. */
async function secondHalf(tx: Tx, seed: bigint) {
  const q = db(tx);
  // 4 (first): every (merchant, mode, currency) with ledger lines, found by skipping through the
  // balance index (one probe per group), and its balances: per merchant account, the index-only sum
  // of its lines, as merchantBalances sums them.
  const balances: Balances = (
    await sql<Balances[number]>`
      with recursive g as (
        (select merchant_id, mode, currency from ledger_lines order by merchant_id, mode, currency, account limit 1)
        union all
        select n.merchant_id, n.mode, n.currency from g cross join lateral (
          select l.merchant_id, l.mode, l.currency from ledger_lines l
          where (l.merchant_id, l.mode, l.currency) > (g.merchant_id, g.mode, g.currency)
          order by l.merchant_id, l.mode, l.currency, l.account limit 1) n
      )
      select g.merchant_id, g.mode, g.currency,
             ${sql.join(MERCHANT_ACCOUNTS.map((account) => sql`coalesce((select sum(l.amount) from ledger_lines l
               where l.merchant_id = g.merchant_id and l.mode = g.mode and l.currency = g.currency and l.account = ${account}), 0)::text
               as ${sql.ref(account.replace("merchant_", ""))}`), sql`, `)}
      from g`.execute(q)
  ).rows;
  // 3: the pass over payments; then the refundable remainder of each refunded payment, exactly.
  const paymentGroups = (
    await sql<Row & { merchant_id: string; mode: string; currency: string }>`
      select p.merchant_id, p.mode, p.currency, count(*)::text as payments, count(p.captured_at)::text as captured,
             sum(p.net_amount) filter (where p.captured_at is not null)::text as net,
             ${sql.join(STAMP_KINDS.map((s, k) => sql`sum(${idHash(seed, "p.id", 10 + k)}) filter (where p.${sql.ref(s.stamp)} is not null)::text as ${sql.ref(`k${k}`)}`), sql`, `)}
      from payments p group by p.merchant_id, p.mode, p.currency`.execute(q)
  ).rows;
  const remaindersAgree = await remaindersHold(tx);
  const tables = (
    await sql<{ source: string; merchant_id: string; mode: string; currency: string; total: string; n: string }>`
      select 'refunds' as source, merchant_id, mode, currency, sum(amount)::text as total, count(*)::text as n from refunds group by merchant_id, mode, currency
      union all
      select 'chargebacks', merchant_id, mode, currency, coalesce(sum(amount) filter (where status = 'opened'), 0)::text, count(*) filter (where status = 'opened')::text
      from chargebacks group by merchant_id, mode, currency
      union all
      select 'payouts', merchant_id, mode, currency, coalesce(sum(amount) filter (where status = 'completed'), 0)::text, count(*)::text from payouts group by merchant_id, mode, currency`.execute(q)
  ).rows;
  return { balances, paymentGroups, remaindersAgree, tables };
}

/** Compares what the passes found; runs the exact query of each invariant whose fingerprint differs. */
async function judge(tx: Tx, first: Awaited<ReturnType<typeof firstHalf>>, second: Awaited<ReturnType<typeof secondHalf>>): Promise<LedgerVerification> {
  const { lines, movements, credited } = first;
  const { balances, paymentGroups, remaindersAgree, tables } = second;
  const violations: LedgerViolation[] = [];
  // A fingerprint that could not be computed (null: an amount too large for it) proves nothing.
  if (lines.f === null || big(lines.f) !== 0n) violations.push(...(await unbalancedTransactions(tx)));
  if (STAMP_KINDS.some((_, k) => big(movements[`k${k}`]) !== sumOf(paymentGroups, `k${k}`))) violations.push(...(await missingMovements(tx)));
  const creditsAgree = lines.credits !== null && credited.credits !== null && big(lines.credits) === big(credited.credits)
    && credited.refund_rows === credited.refund_transactions && credited.refund_rows === credited.refunds_joined
    && credited.chargeback_rows === credited.chargeback_transactions && credited.chargeback_rows === credited.chargebacks_joined;
  if (!creditsAgree) violations.push(...(await refundChecks(tx)), ...(await chargebackChecks(tx)));
  if (!remaindersAgree) violations.push(...(await remainderChecks(tx)), ...(await refundedWithoutRefunds(tx)));

  // 4: per merchant, mode and currency, the balances against the lines' totals of pass 1 and
  // against the payments, refunds, chargebacks and payouts tables.
  const facts = new Map<string, GroupFacts>();
  const factsOf = (g: { merchant_id: string; mode: string; currency: string }): GroupFacts => {
    let f = facts.get(groupKey(g));
    if (!f) {
      f = { merchant_id: g.merchant_id, mode: g.mode, currency: g.currency, pending: 0n, available: 0n, in_transit: 0n, net: 0n, refunds: 0n, open_chargebacks: 0n, open_chargeback_count: 0, completed_payouts: 0n };
      facts.set(groupKey(g), f);
    }
    return f;
  };
  for (const b of balances) Object.assign(factsOf(b), { pending: big(b.pending), available: big(b.available), in_transit: big(b.in_transit) });
  if ((["pending", "available", "in_transit"] as const).reduce((sum, field) => sum + sumOf(balances, field), 0n) !== big(lines.merchant_total)) {
    violations.push(...(await balancesAgainstLines(tx, facts)));
  }
  for (const row of paymentGroups) factsOf(row).net = big(row.net);
  let payouts = 0;
  for (const row of tables) {
    const f = factsOf(row);
    if (row.source === "refunds") f.refunds = big(row.total);
    else if (row.source === "chargebacks") Object.assign(f, { open_chargebacks: big(row.total), open_chargeback_count: Number(row.n) });
    else {
      f.completed_payouts = big(row.total);
      payouts += Number(row.n);
    }
  }
  for (const f of [...facts.values()].sort((a, b) => groupKey(a).localeCompare(groupKey(b)))) {
    const where = { merchant_id: f.merchant_id, mode: f.mode, currency: f.currency };
    const label = `${f.merchant_id} ${f.mode} ${f.currency}`;
    if (f.available < 0n && f.open_chargeback_count === 0) {
      violations.push({
        invariant: "available_not_negative", ...where, account: "merchant_available", expected: ">= 0", actual: f.available.toString(),
        message: `${label}: available balance ${f.available} is below zero with no open chargeback`,
      });
    }
    const expected = f.net - f.refunds - f.open_chargebacks - f.completed_payouts;
    const actual = f.pending + f.available + f.in_transit;
    if (expected !== actual) {
      violations.push({
        invariant: "merchant_total", ...where, expected: expected.toString(), actual: actual.toString(),
        message: `${label}: pending + available + in_transit = ${actual}, but net ${f.net} − refunds ${f.refunds} − open chargebacks ${f.open_chargebacks} − completed payouts ${f.completed_payouts} = ${expected}`,
      });
    }
  }

  const checked: LedgerChecked = {
    transactions: Number(movements.transactions),
    lines: Number(lines.lines),
    payments: Number(sumOf(paymentGroups, "payments")),
    captured_payments: Number(sumOf(paymentGroups, "captured")),
    refunds: Number(credited.refund_rows),
    chargebacks: Number(credited.chargeback_rows),
    payouts,
    balances: facts.size,
  };
  return violations.length === 0 ? { ok: true, checked } : { ok: false, checked, violations };
}

/** The exact form of the zero-sum fingerprint: each transaction and currency whose lines do not sum to zero. */
async function unbalancedTransactions(tx: Tx): Promise<LedgerViolation[]> {
  const rows = await sql<{ transaction_id: string; currency: string; payment_id: string | null; total: string }>`
    select l.transaction_id::text, l.currency, min(l.payment_id) as payment_id, sum(l.amount)::text as total
    from ledger_lines l group by l.transaction_id, l.currency having sum(l.amount) <> 0
    order by l.transaction_id limit ${VIOLATIONS_PER_INVARIANT}`.execute(db(tx));
  return rows.rows.map((r) => ({
    invariant: "transaction_balanced",
    transaction_id: r.transaction_id,
    ...(r.payment_id ? { payment_id: r.payment_id } : {}),
    currency: r.currency,
    expected: "0",
    actual: r.total,
    message: `ledger transaction ${r.transaction_id}: its ${r.currency} lines sum to ${r.total}, not 0`,
  }));
}

/** The exact form of the stamp fingerprint: stamps without their transaction, and transactions without their stamp. */
async function missingMovements(tx: Tx): Promise<LedgerViolation[]> {
  const violations: LedgerViolation[] = [];
  for (const { stamp, kind } of STAMP_KINDS) {
    const missing = await sql<{ id: string }>`
      select p.id from payments p
      where p.${sql.ref(stamp)} is not null
        and not exists (select 1 from ledger_transactions t where t.payment_id = p.id and t.kind = ${kind})
      order by p.id limit ${VIOLATIONS_PER_INVARIANT}`.execute(db(tx));
    for (const { id } of missing.rows) {
      violations.push({
        invariant: "payment_has_movement", payment_id: id, expected: `a ${kind} transaction`, actual: "none",
        message: `payment ${id} has ${stamp} set but no ${kind} ledger transaction`,
      });
    }
    const orphans = await sql<{ id: string; payment_id: string | null }>`
      select t.id::text, t.payment_id from ledger_transactions t
      where t.kind = ${kind} and not exists (select 1 from payments p where p.id = t.payment_id and p.${sql.ref(stamp)} is not null)
      order by t.id limit ${VIOLATIONS_PER_INVARIANT}`.execute(db(tx));
    for (const o of orphans.rows) {
      violations.push({
        invariant: "movement_has_payment", transaction_id: o.id, ...(o.payment_id ? { payment_id: o.payment_id } : {}),
        expected: `a payment with ${stamp}`, actual: "none",
        message: `${kind} ledger transaction ${o.id} belongs to no payment with ${stamp} set (payment ${o.payment_id ?? "none"})`,
      });
    }
  }
  return violations;
}

/**
 * The exact form of the refund fingerprint: each refund row has its refund transaction, which took
 * exactly the refund's amount from the merchant's accounts (and no refund transaction lacks its
 * row), so each payment's refundable remainder is the same counted from its refunds or from the ledger.
 */
async function refundChecks(tx: Tx): Promise<LedgerViolation[]> {
  const rows = await sql<{ what: string; refund_id: string | null; transaction_id: string | null; payment_id: string | null; amount: string | null; refunded: string | null; moved: string | null; status: string | null; status_before_chargeback: string | null }>`
    with moved as (
      select t.id, t.refund_id, t.payment_id, coalesce(-sum(l.amount) filter (where l.account in ${MERCHANT_ACCOUNT_LIST}), 0) as moved
      from ledger_transactions t left join ledger_lines l on l.transaction_id = t.id
      where t.refund_id is not null and t.kind = 'refund'
      group by t.id, t.refund_id, t.payment_id
    ),
    per_refund as (
      select coalesce(r.id, m.refund_id) as refund_id, m.id as transaction_id, coalesce(r.payment_id, m.payment_id) as payment_id,
             r.id is not null as has_row, r.amount, m.moved, r.payment_id as row_payment_id, m.payment_id as ledger_payment_id
      from refunds r full join moved m on m.refund_id = r.id
    ),
    per_payment as (
      select pr.payment_id, coalesce(sum(pr.amount), 0) as refunded, coalesce(sum(pr.moved), 0) as moved from per_refund pr group by pr.payment_id
    ),
    checked as (select pp.*, p.amount, p.status, p.status_before_chargeback from per_payment pp left join payments p on p.id = pp.payment_id)
    select 'refund' as what, refund_id, transaction_id::text, payment_id, amount::text, null as refunded, moved::text, null as status, null as status_before_chargeback
    from per_refund
    where transaction_id is null or not has_row or moved <> amount or row_payment_id is distinct from ledger_payment_id
    union all
    select 'payment', null, null, payment_id, amount::text, refunded::text, moved::text, status, status_before_chargeback
    from checked
    where amount is null or refunded <> moved`.execute(db(tx));
  const violations: LedgerViolation[] = [];
  for (const r of rows.rows) {
    if (violations.length >= VIOLATIONS_PER_INVARIANT * 2) continue;
    const ids = { ...(r.refund_id ? { refund_id: r.refund_id } : {}), ...(r.payment_id ? { payment_id: r.payment_id } : {}), ...(r.transaction_id ? { transaction_id: r.transaction_id } : {}) };
    if (r.what === "refund") {
      const message = r.transaction_id === null
        ? `refund ${r.refund_id} has no refund ledger transaction`
        : r.amount === null
          ? `refund ledger transaction ${r.transaction_id} belongs to no refund row (${r.refund_id})`
          : `refund ${r.refund_id} of ${r.amount} for ${r.payment_id} took ${r.moved} from the merchant in ledger transaction ${r.transaction_id}`;
      violations.push({ invariant: "refund_has_movement", ...ids, expected: r.amount ?? "a refund row", actual: r.moved ?? "no transaction", message });
      continue;
    }
    if (r.amount === null) {
      violations.push({ invariant: "refundable_remainder", ...ids, expected: "a payment", actual: "none", message: `refunds of ${r.payment_id}, which is no payment` });
      continue;
    }
    const byRows = BigInt(r.amount) - BigInt(r.refunded ?? "0");
    const byLedger = BigInt(r.amount) - BigInt(r.moved ?? "0");
    violations.push({
      invariant: "refundable_remainder", ...ids, expected: byRows.toString(), actual: byLedger.toString(),
      message: `payment ${r.payment_id}: amount − refunds is ${byRows}, amount − its refund transactions is ${byLedger}`,
    });
  }
  return violations;
}

/**
 * Whether every refundable remainder holds, in one pass that joins only the payments whose status
 * says refunded or partially refunded (a tenth of them, typically) with their refunds per payment:
 * each such payment has refunds, not more than its amount, and its status says what is left; and
 * every payment with refunds is one of them (the refund groups all joined), so a refund of a payment
 * that does not say refunded, or of no payment at all, also answers false. Hashing only those
 * payments costs about a third less than joining all refunds with all payments (remainderChecks);
 * when this answers false, remainderChecks and refundedWithoutRefunds name the payments.
 */
async function remaindersHold(tx: Tx): Promise<boolean> {
  const row = (
    await sql<{ refunded_payments: string; joined: string; bad: string }>`
      with r as (select payment_id, sum(amount) as refunded from refunds group by payment_id)
      select (select count(*) from r)::text as refunded_payments, count(r.payment_id)::text as joined,
             count(*) filter (where r.payment_id is null or p.amount < r.refunded
               or (case when p.amount = r.refunded then 'refunded' else 'partially_refunded' end)
                  <> (case when p.status = 'chargeback' then p.status_before_chargeback else p.status end))::text as bad
      from payments p left join r on r.payment_id = p.id
      where p.status in ('refunded', 'partially_refunded')
         or (p.status = 'chargeback' and p.status_before_chargeback in ('refunded', 'partially_refunded'))`.execute(db(tx))
  ).rows[0]!;
  return row.bad === "0" && row.refunded_payments === row.joined;
}

/**
 * The exact form of remaindersHold: each payment with refunds whose refundable remainder (amount −
 * Σ refunds) is below zero or whose status does not say what is left (refunded ⇔ nothing,
 * partially_refunded ⇔ something; under a chargeback, the status before it), and refunds of no payment.
 */
async function remainderChecks(tx: Tx): Promise<LedgerViolation[]> {
  const rows = await sql<{ id: string; status: string | null; status_before_chargeback: string | null; amount: string | null; refunded: string }>`
    with r as (select payment_id, sum(amount) as refunded from refunds group by payment_id),
    checked as (
      select r.payment_id, r.refunded, p.id, p.amount, p.status, p.status_before_chargeback,
             case when p.status = 'chargeback' then p.status_before_chargeback else p.status end as refund_status
      from r left join payments p on p.id = r.payment_id
    )
    select payment_id as id, status, status_before_chargeback, amount::text, refunded::text from checked
    where id is null or amount < refunded or not ((amount = refunded and refund_status = 'refunded') or (amount > refunded and refund_status = 'partially_refunded'))
    order by payment_id limit ${VIOLATIONS_PER_INVARIANT}`.execute(db(tx));
  return rows.rows.map((r): LedgerViolation => {
    if (r.amount === null) {
      return { invariant: "refundable_remainder", payment_id: r.id, expected: "a payment", actual: "none", message: `refunds of ${r.id}, which is no payment` };
    }
    const left = BigInt(r.amount) - BigInt(r.refunded);
    const status = `${r.status}${r.status === "chargeback" ? ` (before it: ${r.status_before_chargeback})` : ""}`;
    return {
      invariant: "refundable_remainder", payment_id: r.id,
      expected: left < 0n ? "refunds <= amount" : left === 0n ? "refunded" : "partially_refunded",
      actual: left < 0n ? `refunds ${r.refunded} > amount ${r.amount}` : status,
      message: left < 0n
        ? `payment ${r.id}: its refunds (${r.refunded}) exceed its amount ${r.amount}`
        : `payment ${r.id} is ${status} with ${left} of ${r.amount} left to refund`,
    };
  });
}

/** Payments whose status says refunded or partially refunded, without a refund. */
async function refundedWithoutRefunds(tx: Tx): Promise<LedgerViolation[]> {
  const rows = await sql<{ id: string; status: string }>`
    select p.id, p.status from payments p
    where (case when p.status = 'chargeback' then p.status_before_chargeback else p.status end) in ('refunded', 'partially_refunded')
      and not exists (select 1 from refunds r where r.payment_id = p.id)
    order by p.id limit ${VIOLATIONS_PER_INVARIANT}`.execute(db(tx));
  return rows.rows.map((p) => ({
    invariant: "refundable_remainder", payment_id: p.id, expected: "a refund", actual: "none",
    message: `payment ${p.id} is ${p.status} but has no refund`,
  }));
}

/** Each chargeback has its chargeback_opened transaction, which credited platform_cash with the chargeback's amount. */
async function chargebackChecks(tx: Tx): Promise<LedgerViolation[]> {
  const rows = await sql<{ chargeback_id: string | null; transaction_id: string | null; payment_id: string | null; amount: string | null; credited: string | null }>`
    with opened as (
      select t.id, t.chargeback_id, t.payment_id, coalesce(sum(l.amount) filter (where l.account = 'platform_cash'), 0) as credited
      from ledger_transactions t left join ledger_lines l on l.transaction_id = t.id
      where t.chargeback_id is not null and t.kind = 'chargeback_opened'
      group by t.id, t.chargeback_id, t.payment_id
    )
    select coalesce(c.id, o.chargeback_id) as chargeback_id, o.id::text as transaction_id, coalesce(c.payment_id, o.payment_id) as payment_id,
           c.amount::text as amount, o.credited::text as credited
    from chargebacks c full join opened o on o.chargeback_id = c.id
    where o.id is null or c.id is null or o.credited <> c.amount or o.payment_id is distinct from c.payment_id
    order by 1 limit ${VIOLATIONS_PER_INVARIANT}`.execute(db(tx));
  return rows.rows.map((r) => ({
    invariant: "chargeback_has_movement",
    ...(r.payment_id ? { payment_id: r.payment_id } : {}),
    ...(r.transaction_id ? { transaction_id: r.transaction_id } : {}),
    chargeback_id: r.chargeback_id ?? "",
    expected: r.amount ?? "a chargeback row",
    actual: r.credited ?? "no transaction",
    message: r.transaction_id === null
      ? `chargeback ${r.chargeback_id} has no chargeback_opened ledger transaction`
      : r.amount === null
        ? `chargeback_opened ledger transaction ${r.transaction_id} belongs to no chargeback row (${r.chargeback_id})`
        : `chargeback ${r.chargeback_id} of ${r.amount} credited ${r.credited} in ledger transaction ${r.transaction_id}`,
  }));
}

/** The exact form of the balances check: each group and account where the reported balance is not the sum of lines. */
async function balancesAgainstLines(tx: Tx, facts: Map<string, GroupFacts>): Promise<LedgerViolation[]> {
  const sums = await sql<{ merchant_id: string; mode: string; currency: string; account: string; total: string }>`
    select merchant_id, mode, currency, account, sum(amount)::text as total from ledger_lines
    where account in ('merchant_pending', 'merchant_available', 'merchant_in_transit')
    group by merchant_id, mode, currency, account order by 1, 2, 3, 4`.execute(db(tx));
  const field = { merchant_pending: "pending", merchant_available: "available", merchant_in_transit: "in_transit" } as const;
  const seen = new Set<string>();
  const violations: LedgerViolation[] = [];
  const compare = (merchant_id: string, mode: string, currency: string, account: keyof typeof field, lineSum: bigint) => {
    const f = facts.get(groupKey({ merchant_id, mode, currency }));
    const reportedValue = f ? f[field[account]] : 0n;
    if (reportedValue === lineSum) return;
    violations.push({
      invariant: "balances_equal_lines", merchant_id, mode, currency, account, expected: lineSum.toString(), actual: reportedValue.toString(),
      message: `${merchant_id} ${mode} ${currency}: the reported ${field[account]} balance is ${reportedValue}, its lines sum to ${lineSum}`,
    });
  };
  for (const s of sums.rows) {
    seen.add(`${groupKey(s)}\u0000${s.account}`);
    compare(s.merchant_id, s.mode, s.currency, s.account as keyof typeof field, BigInt(s.total));
  }
  for (const f of facts.values()) {
    for (const account of Object.keys(field) as Array<keyof typeof field>) {
      if (!seen.has(`${groupKey(f)}\u0000${account}`)) compare(f.merchant_id, f.mode, f.currency, account, 0n);
    }
  }
  return violations;
}
