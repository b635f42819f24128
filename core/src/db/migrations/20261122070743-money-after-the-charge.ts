import { Migration } from '@mikro-orm/migrations';

export class Migration20261122070743_money_after_the_charge extends Migration {

  override name = 'Migration20261122070743_money_after_the_charge';

  override up(): void | Promise<void> {
    this.addSql(`create table "ledger_transactions" ("id" bigint generated always as identity not null primary key, "kind" text not null, "merchant_id" text not null, "mode" text not null, "currency" text not null, "payment_id" text null, "refund_id" text null, "chargeback_id" text null, "payout_id" text null, "created_at" timestamptz(3) not null);`);
    this.addSql(`create index "ledger_transactions_payment_idx" on "ledger_transactions" ("payment_id", "id") where payment_id is not null;`);
    this.addSql(`create index "ledger_transactions_merchant_idx" on "ledger_transactions" ("merchant_id", "mode", "id");`);
    this.addSql(`create unique index "ledger_transactions_payment_step_key" on "ledger_transactions" ("payment_id", "kind") where kind in ('capture', 'settlement_batch', 'funds_received', 'release');`);
    this.addSql(`create unique index "ledger_transactions_refund_key" on "ledger_transactions" ("refund_id") where refund_id is not null;`);
    this.addSql(`create unique index "ledger_transactions_chargeback_step_key" on "ledger_transactions" ("chargeback_id", "kind") where chargeback_id is not null;`);
    this.addSql(`create unique index "ledger_transactions_payout_step_key" on "ledger_transactions" ("payout_id", "kind") where payout_id is not null;`);

    this.addSql(`create table "ledger_lines" ("id" bigint generated always as identity not null primary key, "transaction_id" bigint not null, "account" text not null, "merchant_id" text not null, "mode" text not null, "currency" text not null, "payment_id" text null, "amount" bigint not null);`);
    this.addSql(`create index "ledger_lines_transaction_idx" on "ledger_lines" ("transaction_id");`);
    this.addSql(`create index "ledger_lines_balance_idx" on "ledger_lines" ("merchant_id", "mode", "currency", "account") include ("amount");`);
    this.addSql(`create index "ledger_lines_payment_idx" on "ledger_lines" ("payment_id", "account") include ("amount") where payment_id is not null;`);

    this.addSql(`create table "chargebacks" ("id" text not null, "merchant_id" text not null, "mode" text not null, "payment_id" text not null, "amount" bigint not null, "currency" text not null, "status" text not null, "reason" text null, "opened_at" timestamptz(3) not null, "won_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "chargebacks_payment_idx" on "chargebacks" ("payment_id");`);
    this.addSql(`create unique index "chargebacks_open_payment_key" on "chargebacks" ("payment_id") where status = 'opened';`);

    this.addSql(`create table "bank_accounts" ("id" text not null, "merchant_id" text not null, "mode" text not null, "currency" text not null, "bank_name" text not null, "holder_name" text not null, "account_number" text not null, "last4" text not null, "active" boolean not null, "next_payout_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "bank_accounts_sweep_idx" on "bank_accounts" ("next_payout_at") where active;`);
    this.addSql(`create unique index "bank_accounts_active_key" on "bank_accounts" ("merchant_id", "mode", "currency") where active;`);

    this.addSql(`create table "payouts" ("id" text not null, "seq" bigint generated always as identity not null, "merchant_id" text not null, "mode" text not null, "currency" text not null, "amount" bigint not null, "status" text not null, "bank_account_id" text not null, "requested_at" timestamptz(3) not null, "processing_at" timestamptz(3) null, "sent_to_bank_at" timestamptz(3) null, "completed_at" timestamptz(3) null, "failed_at" timestamptz(3) null, "canceled_at" timestamptz(3) null, "failure_reason" text null, "claimed_until" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`alter table "payouts" add constraint "payouts_seq_key" unique ("seq");`);
    this.addSql(`create index "payouts_list_idx" on "payouts" ("merchant_id", "mode", "created_at" DESC, "seq" DESC);`);
    this.addSql(`create index "payouts_open_idx" on "payouts" ("requested_at") where status in ('requested', 'processing', 'sent_to_bank');`);

    this.addSql(`create table "refunds" ("id" text not null, "seq" bigint generated always as identity not null, "merchant_id" text not null, "mode" text not null, "payment_id" text not null, "amount" bigint not null, "currency" text not null, "reason" text not null, "status" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`alter table "refunds" add constraint "refunds_seq_key" unique ("seq");`);
    this.addSql(`create index "refunds_payment_idx" on "refunds" ("payment_id", "created_at" DESC, "seq" DESC);`);
    this.addSql(`create index "refunds_list_idx" on "refunds" ("merchant_id", "mode", "created_at" DESC, "seq" DESC);`);

    this.addSql(`drop index "payments_settle_captured_idx";`);
    this.addSql(`drop index "payments_settle_pending_idx";`);
    this.addSql(`drop index "payments_settle_received_idx";`);
    this.addSql(`create index "payments_settle_captured_idx" on "payments" ("captured_at") where captured_at is not null and pending_settlement_at is null and mode = 'test';`);
    this.addSql(`create index "payments_settle_pending_idx" on "payments" ("pending_settlement_at") where pending_settlement_at is not null and settled_to_paytami_at is null and mode = 'test';`);
    this.addSql(`create index "payments_settle_received_idx" on "payments" ("settled_to_paytami_at") where settled_to_paytami_at is not null and available_to_merchant_at is null and mode = 'test';`);

    this.addSql(`alter table "ledger_transactions" add constraint "ledger_transactions_kind_check" check (kind in ('capture', 'settlement_batch', 'funds_received', 'release', 'refund', 'chargeback_opened', 'chargeback_won', 'payout_requested', 'payout_completed', 'payout_failed'));`);
    this.addSql(`alter table "ledger_transactions" add constraint "ledger_transactions_mode_check" check (mode in ('test', 'live'));`);
    this.addSql(`create or replace function "ledger_transactions_append_only_fn"() returns trigger as \$\$ begin raise exception 'the ledger is append-only: % on % refused', tg_op, tg_table_name; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "append_only" BEFORE UPDATE OR DELETE on "ledger_transactions" for each ROW execute function "ledger_transactions_append_only_fn"();`);

    this.addSql(`alter table "ledger_lines" add constraint "ledger_lines_transaction_id_fkey" foreign key ("transaction_id") references "ledger_transactions" ("id");`);
    this.addSql(`alter table "ledger_lines" add constraint "ledger_lines_account_check" check (account in ('merchant_pending', 'merchant_available', 'merchant_in_transit', 'processor_receivable', 'processor_in_flight', 'platform_cash', 'fee_revenue'));`);
    this.addSql(`create or replace function "ledger_lines_append_only_fn"() returns trigger as \$\$ begin raise exception 'the ledger is append-only: % on % refused', tg_op, tg_table_name; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "append_only" BEFORE UPDATE OR DELETE on "ledger_lines" for each ROW execute function "ledger_lines_append_only_fn"();`);

    this.addSql(`alter table "chargebacks" add constraint "chargebacks_merchant_id_fkey" foreign key ("merchant_id") references "merchants" ("id");`);
    this.addSql(`alter table "chargebacks" add constraint "chargebacks_mode_check" check (mode in ('test', 'live'));`);
    this.addSql(`alter table "chargebacks" add constraint "chargebacks_amount_check" check (amount > 0);`);
    this.addSql(`alter table "chargebacks" add constraint "chargebacks_status_check" check (status in ('opened', 'won'));`);

    this.addSql(`alter table "bank_accounts" add constraint "bank_accounts_merchant_id_fkey" foreign key ("merchant_id") references "merchants" ("id");`);
    this.addSql(`alter table "bank_accounts" add constraint "bank_accounts_mode_check" check (mode in ('test', 'live'));`);

    this.addSql(`alter table "payouts" add constraint "payouts_merchant_id_fkey" foreign key ("merchant_id") references "merchants" ("id");`);
    this.addSql(`alter table "payouts" add constraint "payouts_bank_account_id_fkey" foreign key ("bank_account_id") references "bank_accounts" ("id");`);
    this.addSql(`alter table "payouts" add constraint "payouts_mode_check" check (mode in ('test', 'live'));`);
    this.addSql(`alter table "payouts" add constraint "payouts_amount_check" check (amount > 0);`);
    this.addSql(`alter table "payouts" add constraint "payouts_status_check" check (status in ('requested', 'processing', 'sent_to_bank', 'completed', 'failed', 'canceled'));`);

    this.addSql(`alter table "refunds" add constraint "refunds_merchant_id_fkey" foreign key ("merchant_id") references "merchants" ("id");`);
    this.addSql(`alter table "refunds" add constraint "refunds_mode_check" check (mode in ('test', 'live'));`);
    this.addSql(`alter table "refunds" add constraint "refunds_amount_check" check (amount > 0);`);
    this.addSql(`alter table "refunds" add constraint "refunds_reason_check" check (reason in ('requested_by_customer', 'duplicate_charge', 'product_not_received', 'product_unacceptable', 'merchant_error', 'fraudulent', 'other'));`);
    this.addSql(`alter table "refunds" add constraint "refunds_status_check" check (status in ('succeeded'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "ledger_lines" drop constraint "ledger_lines_transaction_id_fkey";`);
    this.addSql(`alter table "payouts" drop constraint "payouts_bank_account_id_fkey";`);

    this.addSql(`drop trigger if exists "append_only" on "ledger_transactions";`);
    this.addSql(`drop function if exists "ledger_transactions_append_only_fn"();`);
    this.addSql(`drop table if exists "ledger_transactions" cascade;`);
    this.addSql(`drop trigger if exists "append_only" on "ledger_lines";`);
    this.addSql(`drop function if exists "ledger_lines_append_only_fn"();`);
    this.addSql(`drop table if exists "ledger_lines" cascade;`);
    this.addSql(`drop table if exists "chargebacks" cascade;`);
    this.addSql(`drop table if exists "bank_accounts" cascade;`);
    this.addSql(`drop table if exists "payouts" cascade;`);
    this.addSql(`drop table if exists "refunds" cascade;`);

    this.addSql(`drop index "payments_settle_captured_idx";`);
    this.addSql(`drop index "payments_settle_pending_idx";`);
    this.addSql(`drop index "payments_settle_received_idx";`);
    this.addSql(`create index "payments_settle_captured_idx" on "payments" ("captured_at") where status = 'captured' and mode = 'test';`);
    this.addSql(`create index "payments_settle_pending_idx" on "payments" ("pending_settlement_at") where status = 'pending_settlement' and mode = 'test';`);
    this.addSql(`create index "payments_settle_received_idx" on "payments" ("settled_to_paytami_at") where status = 'settled_to_paytami' and mode = 'test';`);
  }

}
