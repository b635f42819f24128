import { Migration } from '@mikro-orm/migrations';

export class Migration20261125221046_merchant_settings extends Migration {

  override name = 'Migration20261125221046_merchant_settings';

  override up(): void | Promise<void> {
    this.addSql(`create table "merchant_logos" ("merchant_id" text not null, "content_type" text not null, "content" bytea not null, "sha256" text not null, "width" int null, "height" int null, "updated_at" timestamptz(3) not null, primary key ("merchant_id"));`);
    this.addSql(`create index "merchant_logos_sha256_idx" on "merchant_logos" ("sha256");`);

    this.addSql(`alter table "merchants" add "brand_color" text null, add "accent_color" text null, add "time_zone" text null, add "default_language" text null;`);
    this.addSql(`alter table "merchants" add constraint "merchants_brand_color_check" check (brand_color ~ '^#[0-9a-f]{6}\$');`);
    this.addSql(`alter table "merchants" add constraint "merchants_accent_color_check" check (accent_color ~ '^#[0-9a-f]{6}\$');`);
    this.addSql(`alter table "merchants" add constraint "merchants_default_language_check" check (default_language in ('es', 'en'));`);

    this.addSql(`alter table "merchant_logos" add constraint "merchant_logos_merchant_id_fkey" foreign key ("merchant_id") references "merchants" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "merchant_logos" add constraint "merchant_logos_content_type_check" check (content_type in ('image/png', 'image/svg+xml'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "merchant_logos" cascade;`);

    this.addSql(`alter table "merchants" drop constraint "merchants_brand_color_check";`);
    this.addSql(`alter table "merchants" drop constraint "merchants_accent_color_check";`);
    this.addSql(`alter table "merchants" drop constraint "merchants_default_language_check";`);
    this.addSql(`alter table "merchants" drop column "brand_color", drop column "accent_color", drop column "time_zone", drop column "default_language";`);
  }

}
