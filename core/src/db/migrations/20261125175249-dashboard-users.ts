import { Migration } from '@mikro-orm/migrations';

export class Migration20261125175249_dashboard_users extends Migration {

  override name = 'Migration20261125175249_dashboard_users';

  override up(): void | Promise<void> {
    this.addSql(`create table "audit_log" ("seq" bigint generated always as identity not null primary key, "user_id" text null, "merchant_id" text null, "mode" text null, "action" text not null, "object_id" text null, "client_ip" text null, "created_at" timestamptz(3) not null);`);
    this.addSql(`create index "audit_log_created_idx" on "audit_log" ("created_at");`);
    this.addSql(`create index "audit_log_merchant_idx" on "audit_log" ("merchant_id", "seq" DESC);`);

    this.addSql(`create table "dashboard_users" ("id" text not null, "email" text not null, "password_hash" text null, "totp_secret" text null, "totp_pending_secret" text null, "totp_last_step" int null, "preferred_mode" text not null default 'test', "preferred_merchant_id" text null, "language" text null, "created_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`alter table "dashboard_users" add constraint "dashboard_users_email_key" unique ("email");`);

    this.addSql(`create table "memberships" ("user_id" text not null, "merchant_id" text not null, "role" text not null, "created_at" timestamptz(3) not null, primary key ("user_id", "merchant_id"));`);
    this.addSql(`create index "memberships_merchant_idx" on "memberships" ("merchant_id");`);

    this.addSql(`create table "dashboard_sessions" ("id" text not null, "digest" text not null, "user_id" text not null, "merchant_id" text not null, "mode" text not null, "created_at" timestamptz(3) not null, "last_seen_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, "client_ip" text null, "user_agent" text null, primary key ("id"));`);
    this.addSql(`alter table "dashboard_sessions" add constraint "dashboard_sessions_digest_key" unique ("digest");`);
    this.addSql(`create index "dashboard_sessions_user_idx" on "dashboard_sessions" ("user_id");`);
    this.addSql(`create index "dashboard_sessions_expires_idx" on "dashboard_sessions" ("expires_at");`);

    this.addSql(`create table "dashboard_user_tokens" ("digest" text not null, "purpose" text not null, "user_id" text not null, "merchant_id" text null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, "used_at" timestamptz(3) null, primary key ("digest"));`);
    this.addSql(`create index "dashboard_user_tokens_user_idx" on "dashboard_user_tokens" ("user_id");`);
    this.addSql(`create index "dashboard_user_tokens_expires_idx" on "dashboard_user_tokens" ("expires_at");`);

    this.addSql(`alter table "dashboard_users" add constraint "dashboard_users_preferred_merchant_id_fkey" foreign key ("preferred_merchant_id") references "merchants" ("id") on delete set null;`);
    this.addSql(`alter table "dashboard_users" add constraint "dashboard_users_preferred_mode_check" check (preferred_mode in ('test', 'live'));`);

    this.addSql(`alter table "memberships" add constraint "memberships_user_id_fkey" foreign key ("user_id") references "dashboard_users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "memberships" add constraint "memberships_merchant_id_fkey" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "memberships" add constraint "memberships_role_check" check (role in ('viewer', 'developer', 'admin', 'owner'));`);

    this.addSql(`alter table "dashboard_sessions" add constraint "dashboard_sessions_user_id_fkey" foreign key ("user_id") references "dashboard_users" ("id");`);
    this.addSql(`alter table "dashboard_sessions" add constraint "dashboard_sessions_merchant_id_fkey" foreign key ("merchant_id") references "merchants" ("id");`);
    this.addSql(`alter table "dashboard_sessions" add constraint "dashboard_sessions_mode_check" check (mode in ('test', 'live'));`);

    this.addSql(`alter table "dashboard_user_tokens" add constraint "dashboard_user_tokens_user_id_fkey" foreign key ("user_id") references "dashboard_users" ("id");`);
    this.addSql(`alter table "dashboard_user_tokens" add constraint "dashboard_user_tokens_merchant_id_fkey" foreign key ("merchant_id") references "merchants" ("id") on delete set null;`);
    this.addSql(`alter table "dashboard_user_tokens" add constraint "dashboard_user_tokens_purpose_check" check (purpose in ('invite', 'reset'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "memberships" drop constraint "memberships_user_id_fkey";`);
    this.addSql(`alter table "dashboard_sessions" drop constraint "dashboard_sessions_user_id_fkey";`);
    this.addSql(`alter table "dashboard_user_tokens" drop constraint "dashboard_user_tokens_user_id_fkey";`);

    this.addSql(`drop table if exists "audit_log" cascade;`);
    this.addSql(`drop table if exists "dashboard_users" cascade;`);
    this.addSql(`drop table if exists "memberships" cascade;`);
    this.addSql(`drop table if exists "dashboard_sessions" cascade;`);
    this.addSql(`drop table if exists "dashboard_user_tokens" cascade;`);
  }

}
