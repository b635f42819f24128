import { Migration } from '@mikro-orm/migrations';

export class Migration20261125185428_outbox_traceparent extends Migration {

  override name = 'Migration20261125185428_outbox_traceparent';

  override up(): void | Promise<void> {
    this.addSql(`alter table "outbox_events" add "traceparent" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "outbox_events" drop column "traceparent";`);
  }

}
