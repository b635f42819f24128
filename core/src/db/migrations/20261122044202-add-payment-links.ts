import { Migration } from '@mikro-orm/migrations';

export class Migration20261122044202_add_payment_links extends Migration {

  override name = 'Migration20261122044202_add_payment_links';

  override up(): void | Promise<void> {
    this.addSql(`create table "link_rate_limits" ("bucket" text not null, "window_start" timestamptz(3) not null, "attempts" int not null, primary key ("bucket", "window_start"));`);
    this.addSql(`create index "link_rate_limits_window_idx" on "link_rate_limits" ("window_start");`);

    this.addSql(`create table "links" ("id" text not null, "seq" bigint generated always as identity not null, "merchant_id" text not null, "mode" text not null, "title" text not null, "description" text not null, "currency" text not null, "fixed_amount" bigint null, "min_amount" bigint null, "max_amount" bigint null, "expires_at" timestamptz(3) null, "max_payments" int null, "succeeded_payments" int not null, "success_url" text null, "cancel_url" text null, "active" boolean not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`alter table "links" add constraint "links_seq_key" unique ("seq");`);
    this.addSql(`create index "links_list_idx" on "links" ("merchant_id", "mode", "created_at" DESC, "seq" DESC);`);

    this.addSql(`alter table "links" add constraint "links_merchant_id_fkey" foreign key ("merchant_id") references "merchants" ("id");`);
    this.addSql(`alter table "links" add constraint "links_amount_check" check ((fixed_amount is not null and fixed_amount > 0 and min_amount is null and max_amount is null) or (fixed_amount is null and min_amount is not null and max_amount is not null and min_amount > 0 and min_amount <= max_amount));`);
    this.addSql(`alter table "links" add constraint "links_mode_check" check (mode in ('test', 'live'));`);
    this.addSql(`alter table "links" add constraint "links_max_payments_check" check (max_payments > 0);`);
    this.addSql(`alter table "links" add constraint "links_succeeded_payments_check" check (succeeded_payments >= 0);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "link_rate_limits" cascade;`);
    this.addSql(`drop table if exists "links" cascade;`);
  }

}
