import { Migration } from '@mikro-orm/migrations';

export class Migration20261122055455_add_webhook_deliveries extends Migration {

  override name = 'Migration20261122055455_add_webhook_deliveries';

  override up(): void | Promise<void> {
    this.addSql(`create table "webhook_deliveries" ("id" text not null, "event_id" text not null, "event_type" text not null, "endpoint_id" text not null, "merchant_id" text not null, "mode" text not null, "status" text not null, "attempt_count" int not null, "round_attempts" int not null, "next_attempt_at" timestamptz(3) null, "claimed_until" timestamptz(3) null, "last_attempt_at" timestamptz(3) null, "last_http_status" int null, "last_error" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("endpoint_id", "next_attempt_at") where status = 'pending';`);
    this.addSql(`create index "webhook_deliveries_leased_idx" on "webhook_deliveries" ("endpoint_id", "claimed_until") where claimed_until is not null;`);
    this.addSql(`create index "webhook_deliveries_endpoint_idx" on "webhook_deliveries" ("endpoint_id", "created_at" DESC);`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_event_endpoint_key" unique ("event_id", "endpoint_id");`);

    this.addSql(`create table "webhook_attempts" ("seq" bigint generated always as identity primary key, "delivery_id" text not null, "endpoint_id" text not null, "attempted_at" timestamptz(3) not null, "succeeded" boolean not null, "http_status" int null, "error" text null, "latency_ms" int not null, "response_excerpt" text not null);`);
    this.addSql(`create index "webhook_attempts_delivery_idx" on "webhook_attempts" ("delivery_id", "seq");`);
    this.addSql(`create index "webhook_attempts_endpoint_idx" on "webhook_attempts" ("endpoint_id", "succeeded", "attempted_at");`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_fkey" foreign key ("endpoint_id") references "webhook_endpoints" ("id") on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_status_check" check (status in ('pending', 'succeeded', 'failed'));`);

    this.addSql(`alter table "webhook_attempts" add constraint "webhook_attempts_delivery_id_fkey" foreign key ("delivery_id") references "webhook_deliveries" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_attempts" drop constraint "webhook_attempts_delivery_id_fkey";`);

    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
    this.addSql(`drop table if exists "webhook_attempts" cascade;`);
  }

}
