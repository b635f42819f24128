import { Migration } from '@mikro-orm/migrations';

export class Migration20261125212349_test_event_endpoint extends Migration {

  override name = 'Migration20261125212349_test_event_endpoint';

  override up(): void | Promise<void> {
    this.addSql(`alter table "outbox_events" add "endpoint_id" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "outbox_events" drop column "endpoint_id";`);
  }

}
