import { Migration } from '@mikro-orm/migrations';

export class Migration20261125210935_request_logs extends Migration {

  override name = 'Migration20261125210935_request_logs';

  override up(): void | Promise<void> {
    this.addSql(`create table "request_logs" ("seq" bigint generated always as identity not null primary key, "merchant_id" text not null, "mode" text not null, "api_key_id" text not null, "created_at" timestamptz(3) not null, "method" text not null, "path" text not null, "status" smallint not null, "code" text null, "latency_ms" int not null, "request_id" text not null, "idempotency_key" text null, "replayed" boolean not null, "client_ip" text null, "request_body" text null, "response_body" text null);`);
    this.addSql(`create index "request_logs_created_idx" on "request_logs" ("created_at");`);
    this.addSql(`create index "request_logs_list_idx" on "request_logs" ("merchant_id", "mode", "created_at" DESC, "seq" DESC);`);
    this.addSql(`create index "request_logs_request_id_idx" on "request_logs" ("merchant_id", "mode", "request_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "request_logs" cascade;`);
  }

}
