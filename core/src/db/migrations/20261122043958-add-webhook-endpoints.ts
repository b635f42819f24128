import { Migration } from '@mikro-orm/migrations';

export class Migration20261122043958_add_webhook_endpoints extends Migration {

  override name = 'Migration20261122043958_add_webhook_endpoints';

  override up(): void | Promise<void> {
    this.addSql(`create table "webhook_endpoints" ("id" text not null, "merchant_id" text not null, "mode" text not null, "url" text not null, "enabled_events" text[] not null, "secret" text not null, "previous_secret" text null, "previous_secret_expires_at" timestamptz(3) null, "enabled" boolean not null, "disabled_reason" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "webhook_endpoints_merchant_idx" on "webhook_endpoints" ("merchant_id", "mode", "created_at" DESC);`);

    this.addSql(`create index "outbox_events_list_idx" on "outbox_events" ("merchant_id", "mode", "created_at" DESC, "seq" DESC);`);
    this.addSql(`create index "outbox_events_list_type_idx" on "outbox_events" ("merchant_id", "mode", "type", "created_at" DESC, "seq" DESC);`);
    this.addSql(`create index "outbox_events_retention_idx" on "outbox_events" ("created_at") where published_at is not null;`);

    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_merchant_id_fkey" foreign key ("merchant_id") references "merchants" ("id");`);
    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_mode_check" check (mode in ('test', 'live'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);

    this.addSql(`drop index "outbox_events_list_idx";`);
    this.addSql(`drop index "outbox_events_list_type_idx";`);
    this.addSql(`drop index "outbox_events_retention_idx";`);
  }

}
