import { Migration } from '@mikro-orm/migrations';

export class Migration20261126200604_outbox_pending extends Migration {

  override name = 'Migration20261126200604_outbox_pending';

  override up(): void | Promise<void> {
    this.addSql(`create table "outbox_pending" ("seq" bigint not null, "claimed_until" timestamptz(3) null, primary key ("seq"));`);
    // A claim's lease changes no indexed column: with room on the page it is a HOT update.
    this.addSql(`alter table "outbox_pending" set (fillfactor = 50);`);
    // What was not published yet is the queue, leases and all; the column that said so goes.
    this.addSql(`insert into "outbox_pending" ("seq", "claimed_until") select "seq", "claimed_until" from "outbox_events" where "published_at" is null;`);

    this.addSql(`drop index "outbox_events_pending_idx";`);
    this.addSql(`drop index "outbox_events_retention_idx";`);
    this.addSql(`alter table "outbox_events" drop column "claimed_until", drop column "published_at";`);
    this.addSql(`create index "outbox_events_retention_idx" on "outbox_events" ("created_at");`);
    // Written once and never updated now: the room kept for HOT claims (20261126091500) is not needed.
    this.addSql(`alter table "outbox_events" reset (fillfactor);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "outbox_events" add "claimed_until" timestamptz(3) null, add "published_at" timestamptz(3) null;`);
    // Everything not in the queue had been published; when is not known any more.
    this.addSql(`update "outbox_events" e set "published_at" = e."created_at" where not exists (select 1 from "outbox_pending" p where p."seq" = e."seq");`);
    this.addSql(`update "outbox_events" e set "claimed_until" = p."claimed_until" from "outbox_pending" p where p."seq" = e."seq";`);
    this.addSql(`drop table if exists "outbox_pending" cascade;`);

    this.addSql(`drop index "outbox_events_retention_idx";`);
    this.addSql(`create index "outbox_events_pending_idx" on "outbox_events" ("seq") where published_at is null;`);
    this.addSql(`create index "outbox_events_retention_idx" on "outbox_events" ("created_at") where published_at is not null;`);
    this.addSql(`alter table "outbox_events" set (fillfactor = 50);`);
  }

}
