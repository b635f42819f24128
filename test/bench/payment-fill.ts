// Payments for the list and dashboard benchmarks, inserted with SQL (generate_series) for speed.
import type { Stack } from "../support/stack.ts";

/**
 * Inserts `n` realistic payments for one merchant (test mode), older than anything
 * already there: mixed statuses, card and bank transfer, amounts across the GTQ range,
 * fees as the service computes them, one every ~31 s going back in time.
 */
export async function insertPayments(stack: Stack, merchantId: string, n: number, offset: number, say: (msg: string) => void): Promise<void> {
  const batch = 100_000;
  for (let done = 0; done < n; done += batch) {
    const size = Math.min(batch, n - done);
    const start = offset + done;
    await stack.sql(
      `
      INSERT INTO payments (id, merchant_id, mode, status, currency, method_type, amount, service_fee, net_amount,
                            description, customer_email, success_url, cancel_url, created_at, updated_at, expires_at, captured_at)
      SELECT 'pay_' || substr(md5(random()::text || clock_timestamp()::text || g::text), 1, 24),
             $1, 'test',
             (ARRAY['captured','available_to_merchant','available_to_merchant','settled_to_paytami','created','failed','expired','canceled'])[1 + (g % 8)],
             'GTQ', m.method, a.amount, f.fee, a.amount - f.fee,
             CASE WHEN g % 3 = 0 THEN 'Pedido #' || g ELSE NULL END,
             CASE WHEN g % 2 = 0 THEN 'cliente' || g || '@example.com' ELSE NULL END,
             'https://shop.example.com/thanks', 'https://shop.example.com/cart',
             t.ts, t.ts, t.ts + interval '24 hours',
             CASE WHEN g % 8 < 4 THEN t.ts + interval '1 minute' ELSE NULL END
        FROM generate_series($2::bigint, $3::bigint) AS g
        CROSS JOIN LATERAL (SELECT CASE WHEN g % 5 = 0 THEN 'bank_transfer' ELSE 'card' END AS method) m
        CROSS JOIN LATERAL (SELECT (500 + (g * 7919) % 2000000)::bigint AS amount) a
        CROSS JOIN LATERAL (SELECT CASE WHEN m.method = 'card'
                                        THEN (a.amount * 70 + 1000) / 2000 + 200
                                        ELSE greatest((a.amount * 20 + 1000) / 2000, 300) END AS fee) f
        CROSS JOIN LATERAL (SELECT date_trunc('milliseconds', now() - interval '10 minutes' - g * interval '31 seconds') AS ts) t
      `,
      [merchantId, start + 1, start + size],
    );
    say(`  inserted ${done + size} / ${n}`);
  }
  await stack.sql("ANALYZE payments");
}
