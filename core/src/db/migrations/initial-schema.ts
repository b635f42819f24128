import { Migration } from "@mikro-orm/migrations";

export class InitialSchema extends Migration {
  override name = "2026-11-21-initial-schema";

  override up(): void {
    this.addSql(`
      create table merchants (
        id text primary key,
        name text not null,
        trade_name text not null,
        currencies text[] not null,
        methods text[] not null,
        created_at timestamptz(3) not null
      );

      create table api_keys (
        id text primary key,
        merchant_id text not null references merchants(id),
        mode text not null check (mode in ('test', 'live')),
        digest text not null unique,
        last4 text not null,
        created_at timestamptz(3) not null,
        expires_at timestamptz(3),
        revoked_at timestamptz(3)
      );
      create index api_keys_merchant_idx on api_keys (merchant_id);

      create table payments (
        id text primary key,
        seq bigint generated always as identity unique,
        merchant_id text not null references merchants(id),
        mode text not null check (mode in ('test', 'live')),
        status text not null,
        status_before_chargeback text,
        currency text not null,
        method_type text not null,
        amount bigint not null check (amount >= 0),
        service_fee bigint not null check (service_fee >= 0),
        net_amount bigint not null check (net_amount >= 0),
        refunded_amount bigint not null default 0 check (refunded_amount >= 0 and refunded_amount <= amount),
        description text,
        customer_email text,
        customer_name text,
        success_url text not null,
        cancel_url text not null,
        link_id text,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        expires_at timestamptz(3) not null,
        processing_at timestamptz(3),
        authorized_at timestamptz(3),
        captured_at timestamptz(3),
        failed_at timestamptz(3),
        canceled_at timestamptz(3),
        expired_at timestamptz(3),
        pending_settlement_at timestamptz(3),
        settled_to_paytami_at timestamptz(3),
        available_to_merchant_at timestamptz(3),
        refunded_at timestamptz(3),
        chargeback_opened_at timestamptz(3),
        chargeback_won_at timestamptz(3)
      );
      -- Keyset pagination: newest first, with and without a status filter.
      create index payments_list_idx on payments (merchant_id, mode, created_at desc, seq desc);
      create index payments_list_status_idx on payments (merchant_id, mode, status, created_at desc, seq desc);
      -- The expiry job scans only payable payments.
      create index payments_expiry_idx on payments (expires_at) where status in ('created', 'processing', 'authorized');

      create table idempotency_keys (
        scope text not null,
        key text not null,
        fingerprint text not null,
        resource_id text not null,
        response text not null,
        created_at timestamptz(3) not null,
        expires_at timestamptz(3) not null,
        primary key (scope, key)
      );
      create index idempotency_keys_expiry_idx on idempotency_keys (expires_at);

      create table outbox_events (
        seq bigint generated always as identity primary key,
        id text not null unique,
        merchant_id text not null,
        mode text not null,
        type text not null,
        envelope jsonb not null,
        created_at timestamptz(3) not null,
        claimed_until timestamptz(3),
        published_at timestamptz(3)
      );
      create index outbox_events_pending_idx on outbox_events (seq) where published_at is null;
    `);
  }
}
