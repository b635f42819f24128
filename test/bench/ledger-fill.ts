// A realistic, clean ledger of any size for the `ledger verify` benchmark, written set-based
// (INSERT … SELECT generate_series): merchants with GTQ and USD payments at every settlement stage,
// partial and full refunds before and after release, chargebacks open and won, and payouts
// completed, failed and on their way, each with the rows of its own table and the ledger lines the
// domain writes for it (ledger-model: capture, settlement_batch, funds_received, release, refund,
// chargeback_opened/won, payout_requested/completed/failed), so `verifyLedger` finds nothing.

/** Runs one SQL statement. */
export type Exec = (query: string, params?: unknown[]) => Promise<unknown>;

const MERCHANTS = 20;
/** Ledger lines per payment on average with the mix below (measured: 7.55). */
const LINES_PER_PAYMENT = 7.55;

const hex = (expr: string) => `lpad(to_hex(${expr}), 24, '0')`;

/**
 * The payments of the bench, by number g: merchant g % 20, USD one in four (of each merchant's); stage (g / 20) % 10 (0–1
 * captured, 2 pending_settlement, 3 settled_to_paytami, 4–9 available_to_merchant); refunded half
 * (g % 7 = 0) or fully (g % 49 = 0, after the half); a chargeback when g % 97 = 0 (won when
 * g % 194 = 0) unless fully refunded.
 */
const PAYMENT_FACTS = `
  select g, 'pay_' || substr(md5('pay' || g), 1, 24) as id, 'mer_' || ${hex("g % " + MERCHANTS)} as merchant_id,
         case when (g / ${MERCHANTS}) % 4 = 0 then 'USD' else 'GTQ' end as currency,
         a.amount, f.fee, a.amount - f.fee as net, (g / ${MERCHANTS}) % 10 as stage,
         case when g % 49 = 0 then 2 when g % 7 = 0 then 1 else 0 end as refunds,
         case when g % 49 <> 0 and g % 97 = 0 then (case when g % 194 = 0 then 'won' else 'opened' end) end as chargeback,
         timestamptz '2026-01-01' + g * interval '1 second' as at
  from generate_series($1::bigint, $2::bigint) g
  cross join lateral (select (1000 + (g * 7919) % 100000)::bigint as amount) a
  cross join lateral (select (a.amount * 35 + 500) / 1000 + 200 as fee) f`;

const stageStatus = `(array['captured','captured','pending_settlement','settled_to_paytami','available_to_merchant','available_to_merchant','available_to_merchant','available_to_merchant','available_to_merchant','available_to_merchant'])[stage + 1]`;

/** Each payment's refunds: the first half of its amount, then (full refund) the rest. */
const REFUND_FACTS = `
  select p.*, r.n, 'refund_' || substr(md5('refund' || (p.g * 2 + r.n)), 1, 24) as refund_id,
         case when r.n = 0 then p.amount / 2 else p.amount - p.amount / 2 end as refund_amount
  from (${PAYMENT_FACTS}) p cross join generate_series(0, p.refunds - 1) r(n)`;

async function fillPayments(exec: Exec, from: number, to: number): Promise<void> {
  const range = [from, to];
  await exec(
    `
    insert into payments (id, merchant_id, mode, status, status_before_chargeback, currency, method_type, amount, service_fee, net_amount,
                          success_url, cancel_url, created_at, updated_at, expires_at, authorized_at, captured_at,
                          pending_settlement_at, settled_to_paytami_at, available_to_merchant_at, refunded_at, chargeback_opened_at, chargeback_won_at)
    select id, merchant_id, 'test',
           case when chargeback = 'opened' then 'chargeback' when refunds = 2 then 'refunded' when refunds = 1 then 'partially_refunded' else ${stageStatus} end,
           case when chargeback = 'opened' then (case when refunds = 1 then 'partially_refunded' else ${stageStatus} end) end,
           currency, 'card', amount, fee, net, 'https://shop.example.com/thanks', 'https://shop.example.com/cart',
           at, at, at + interval '1 day', at, at,
           case when stage >= 2 then at + interval '1 minute' end, case when stage >= 3 then at + interval '2 minutes' end,
           case when stage >= 4 then at + interval '3 minutes' end, case when refunds = 2 then at + interval '4 minutes' end,
           case when chargeback is not null then at + interval '5 minutes' end, case when chargeback = 'won' then at + interval '6 minutes' end
    from (${PAYMENT_FACTS}) p`,
    range,
  );
  await exec(
    `
    insert into refunds (id, merchant_id, mode, payment_id, amount, currency, reason, status, created_at, updated_at)
    select refund_id, merchant_id, 'test', id, refund_amount, currency, 'requested_by_customer', 'succeeded', at + interval '4 minutes', at + interval '4 minutes'
    from (${REFUND_FACTS}) r`,
    range,
  );
  await exec(
    `
    insert into chargebacks (id, merchant_id, mode, payment_id, amount, currency, status, reason, opened_at, won_at, created_at, updated_at)
    select 'chb_' || substr(md5('chb' || g), 1, 24), merchant_id, 'test', id, amount - (case when refunds = 1 then amount / 2 else 0 end), currency, chargeback, 'fraudulent',
           at + interval '5 minutes', case when chargeback = 'won' then at + interval '6 minutes' end, at + interval '5 minutes', at + interval '5 minutes'
    from (${PAYMENT_FACTS}) p where chargeback is not null`,
    range,
  );
  // The payment's movements: (kind, its lines as [account, amount] pairs) for every stage it reached.
  await postMovements(
    exec,
    `
    select p.merchant_id, p.currency, p.id as payment_id, null::text as refund_id, null::text as chargeback_id, m.kind, p.at + m.after as at, m.lines
    from (${PAYMENT_FACTS}) p
    cross join lateral (values
      ('capture', interval '0', true,
        array[('processor_receivable', -p.amount), ('fee_revenue', p.fee), ('merchant_pending', p.net)]::ledger_fill_line[]),
      ('settlement_batch', interval '1 minute', p.stage >= 2,
        array[('processor_receivable', p.amount), ('processor_in_flight', -p.amount)]::ledger_fill_line[]),
      ('funds_received', interval '2 minutes', p.stage >= 3,
        array[('processor_in_flight', p.amount), ('platform_cash', -p.amount)]::ledger_fill_line[]),
      ('release', interval '3 minutes', p.stage >= 4,
        array[('merchant_pending', -p.net), ('merchant_available', p.net)]::ledger_fill_line[])
    ) m(kind, after, reached, lines)
    where m.reached
    union all
    -- Refunds come after the payment's stage: from pending before release, from available after.
    select merchant_id, currency, id, refund_id, null, 'refund', at + interval '4 minutes',
           array[(case when stage >= 4 then 'merchant_available' else 'merchant_pending' end, -refund_amount), ('platform_cash', refund_amount)]::ledger_fill_line[]
    from (${REFUND_FACTS}) r
    union all
    select merchant_id, currency, id, null, 'chb_' || substr(md5('chb' || g), 1, 24), k.kind, at + k.after, k.lines
    from (${PAYMENT_FACTS}) p
    cross join lateral (select amount - (case when refunds = 1 then amount / 2 else 0 end) as c) c
    cross join lateral (values
      ('chargeback_opened', interval '5 minutes', true, array[('merchant_available', -c.c), ('platform_cash', c.c)]::ledger_fill_line[]),
      ('chargeback_won', interval '6 minutes', p.chargeback = 'won', array[('merchant_available', c.c), ('platform_cash', -c.c)]::ledger_fill_line[])
    ) k(kind, after, reached, lines)
    where p.chargeback is not null and k.reached`,
    range,
  );
}

/**
 * Writes movements: `source` selects (merchant_id, currency, payment_id, refund_id, chargeback_id,
 * kind, at, lines ledger_fill_line[]); each becomes a transaction and its lines, in one statement.
 */
async function postMovements(exec: Exec, source: string, params: unknown[], payout = "null::text"): Promise<void> {
  await exec(
    `
    with m as (select s.*, ${payout} as payout_id, row_number() over () as n from (${source}) s),
    t as (
      insert into ledger_transactions (kind, merchant_id, mode, currency, payment_id, refund_id, chargeback_id, payout_id, created_at)
      select kind, merchant_id, 'test', currency, payment_id, refund_id, chargeback_id, payout_id, at from m order by n
      returning id, kind, coalesce(refund_id, chargeback_id, payout_id, payment_id) as subject
    )
    insert into ledger_lines (transaction_id, account, merchant_id, mode, currency, payment_id, amount)
    select t.id, l.account, m.merchant_id, 'test', m.currency, m.payment_id, l.amount
    from m join t on t.kind = m.kind and t.subject = coalesce(m.refund_id, m.chargeback_id, m.payout_id, m.payment_id)
    cross join lateral unnest(m.lines) l
    order by t.id`,
    params,
  );
}

/**
 * Each merchant's payouts per currency: 5 completed, 1 failed (money back in available), 1 sent to
 * the bank, each of 1 000 minor units (far below what every merchant has available).
 */
async function fillPayouts(exec: Exec): Promise<void> {
  await exec(`
    insert into bank_accounts (id, merchant_id, mode, currency, bank_name, holder_name, account_number, last4, active, created_at, updated_at)
    select 'ba_' || ${hex("m * 2 + c.i")}, 'mer_' || ${hex("m")}, 'test', c.currency, 'Banco Bench', 'Bench ' || m, '000111' || (m * 2 + c.i), right('000111' || (m * 2 + c.i), 4), true, now(), now()
    from generate_series(0, ${MERCHANTS - 1}) m cross join (values (0, 'GTQ'), (1, 'USD')) c(i, currency)`);
  const payouts = `
    select 'payout_' || ${hex("(m * 2 + c.i) * 10 + k")} as id, 'mer_' || ${hex("m")} as merchant_id, c.currency, 'ba_' || ${hex("m * 2 + c.i")} as bank_account_id,
           case when k < 5 then 'completed' when k = 5 then 'failed' else 'sent_to_bank' end as status,
           timestamptz '2026-06-01' + (m * 20 + k) * interval '1 hour' as at
    from generate_series(0, ${MERCHANTS - 1}) m cross join (values (0, 'GTQ'), (1, 'USD')) c(i, currency) cross join generate_series(0, 6) k`;
  await exec(`
    insert into payouts (id, merchant_id, mode, currency, amount, status, bank_account_id, requested_at, processing_at, sent_to_bank_at, completed_at, failed_at, failure_reason, created_at, updated_at)
    select id, merchant_id, 'test', currency, 1000, status, bank_account_id, at, at, at,
           case when status = 'completed' then at end, case when status = 'failed' then at end, case when status = 'failed' then 'account_closed' end, at, at
    from (${payouts}) p`);
  await postMovements(
    exec,
    `
    select p.merchant_id, p.currency, null::text as payment_id, null::text as refund_id, null::text as chargeback_id, k.kind, p.at as at, k.lines, p.id as pid
    from (${payouts}) p
    cross join lateral (values
      ('payout_requested', true, array[('merchant_available', -1000::bigint), ('merchant_in_transit', 1000::bigint)]::ledger_fill_line[]),
      ('payout_completed', p.status = 'completed', array[('merchant_in_transit', -1000::bigint), ('platform_cash', 1000::bigint)]::ledger_fill_line[]),
      ('payout_failed', p.status = 'failed', array[('merchant_in_transit', -1000::bigint), ('merchant_available', 1000::bigint)]::ledger_fill_line[])
    ) k(kind, reached, lines)
    where k.reached`,
    [],
    "s.pid",
  );
}

/** Fills an empty, migrated database with about `lines` ledger lines; answers how many it wrote. */
export async function fillLedger(exec: Exec, lines: number, say: (msg: string) => void = () => undefined): Promise<number> {
  await exec(`create type ledger_fill_line as (account text, amount bigint)`);
  await exec(`
    insert into merchants (id, name, trade_name, currencies, methods, created_at)
    select 'mer_' || ${hex("m")}, 'Bench ' || m, 'Bench ' || m, '{GTQ,USD}', '{card,bank_transfer}', now() from generate_series(0, ${MERCHANTS - 1}) m`);
  const payments = Math.max(1, Math.round(lines / LINES_PER_PAYMENT));
  const batch = 50_000;
  for (let from = 1; from <= payments; from += batch) {
    await fillPayments(exec, from, Math.min(payments, from + batch - 1));
    say(`  ledger fill: ${Math.min(payments, from + batch - 1)} / ${payments} payments`);
  }
  await fillPayouts(exec);
  await exec(`drop type ledger_fill_line`);
  await exec(`vacuum analyze`);
  return Number(((await exec(`select count(*)::text as n from ledger_lines`)) as Array<{ n: string }>)[0]!.n);
}
