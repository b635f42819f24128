// The benchmark's yardstick: the cheapest possible POST /v1/payments, one hop.
// A plain node:http server and a pg Pool run the payment-creation statement
// (authenticate the API key, check the merchant's currency and method, claim
// the Idempotency-Key, insert the payment) against the product's database, for
// a merchant created beforehand. No framework, no gRPC, no ORM, no validation
// beyond what the statement needs: `npm run bench` runs it alternately with the
// product and reports product / baseline, so a busy machine slows both alike.
//
// Its own copy of the SQL on purpose: it is the reference the product's
// implementation is measured against, not a second implementation of it.
// `payments.refunded_amount` is left to its column default (or its absence).
//
// Environment: DATABASE_URL, DB_POOL_SIZE (default 10, the core's default),
// PUBLIC_BASE_URL. Listens on an ephemeral loopback port and prints
// `{"port":N}` on stdout when ready.

import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE ?? 10) });
const publicBaseUrl = process.env.PUBLIC_BASE_URL ?? "http://127.0.0.1";
const PAYMENT_TTL_MS = 24 * 3600_000;
const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

// The default fee rules of core/src/config.ts (basis points of a percent, fixed, minimum).
const FEES: Record<string, [bigint, bigint, bigint]> = {
  "GTQ:card": [350n, 200n, 0n],
  "GTQ:bank_transfer": [100n, 0n, 300n],
  "USD:card": [390n, 30n, 0n],
};

const CREATE = `
  with principal as (
    select k.merchant_id, k.mode, k.revoked_at, k.expires_at, m.currencies, m.methods
    from api_keys k join merchants m on m.id = k.merchant_id
    where k.digest = $1 and k.mode = $2
  ), allowed as (
    select merchant_id, mode, merchant_id || ':' || mode as scope from principal
    where revoked_at is null and (expires_at is null or expires_at > $3::timestamptz)
      and $4::text = any(currencies) and $5::text = any(methods)
  ), claim as (
    insert into idempotency_keys (scope, key, fingerprint, resource_id, response, created_at, expires_at)
    select scope, $6, $7, $8, $9, $3::timestamptz, $10::timestamptz from allowed
    on conflict (scope, key) do update set
      fingerprint = excluded.fingerprint, resource_id = excluded.resource_id, response = excluded.response,
      created_at = excluded.created_at, expires_at = excluded.expires_at
    where idempotency_keys.expires_at <= $3::timestamptz
    returning scope
  ), created as (
    insert into payments (id, merchant_id, mode, status, currency, method_type, amount, service_fee, net_amount,
      description, customer_email, customer_name, success_url, cancel_url, created_at, updated_at, expires_at)
    select $8, allowed.merchant_id, allowed.mode, 'created', $4, $5, $11::bigint, $12::bigint, $13::bigint,
      $14::text, $15::text, $16::text, $17, $18, $3::timestamptz, $3::timestamptz, $19::timestamptz
    from allowed join claim on claim.scope = allowed.scope
    returning 1
  )
  select merchant_id, (select count(*)::int from created) as created from principal`;

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function createPayment(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const text = await readBody(req);
  const key = /^Bearer (sk_(test|live)_\S+)$/.exec(req.headers.authorization ?? "");
  const idempotencyKey = req.headers["idempotency-key"];
  if (!key || typeof idempotencyKey !== "string") return send(res, 401, '{"error":"unauthorized"}');
  const input = JSON.parse(text) as Record<string, any>;
  const rule = FEES[`${input.currency}:${input.method_type}`];
  if (!rule || !/^[0-9]{1,16}$/.test(input.amount)) return send(res, 400, '{"error":"validation_error"}');
  const amount = BigInt(input.amount);
  let fee = (amount * rule[0] + 5_000n) / 10_000n + rule[1];
  if (fee < rule[2]) fee = rule[2];
  if (fee > amount) fee = amount;

  const now = new Date();
  const id = `pay_${randomBytes(12).toString("hex")}`;
  const response = JSON.stringify({
    id,
    status: "created",
    currency: input.currency,
    amount: amount.toString(),
    service_fee: fee.toString(),
    net_amount: (amount - fee).toString(),
    ...(input.description != null ? { description: input.description } : {}),
    checkout_url: `${publicBaseUrl}/v1/checkout/${id}`,
    created_at: now.toISOString(),
  });
  const { rows } = await pool.query<{ merchant_id: string; created: number }>(CREATE, [
    createHash("sha256").update(key[1]!).digest("hex"),
    key[2],
    now,
    input.currency,
    input.method_type,
    idempotencyKey,
    createHash("sha256").update(text).digest("hex"),
    id,
    response,
    new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    amount.toString(),
    fee.toString(),
    (amount - fee).toString(),
    input.description ?? null,
    input.customer?.email ?? null,
    input.customer?.name ?? null,
    input.success_url,
    input.cancel_url,
    new Date(now.getTime() + PAYMENT_TTL_MS),
  ]);
  if (!rows[0]) return send(res, 401, '{"error":"unauthorized"}');
  // The bench sends a fresh key per request: anything else is not the path being measured.
  if (rows[0].created !== 1) return send(res, 409, '{"error":"not_created"}');
  send(res, 201, response);
}

const server = createServer((req, res) => {
  if (req.method === "POST" && req.url === "/v1/payments") {
    createPayment(req, res).catch((error: unknown) => {
      process.stderr.write(`baseline: ${String(error)}\n`);
      if (!res.headersSent) send(res, 500, '{"error":"internal_error"}');
    });
  } else if (req.url === "/healthz") {
    send(res, 200, '{"status":"ok"}');
  } else {
    send(res, 404, '{"error":"not_found"}');
  }
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 })}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
