import { Migration } from '@mikro-orm/migrations';

export class Migration20261122080000_event_envelope_keeps_key_order extends Migration {

  override name = 'Migration20261122080000_event_envelope_keeps_key_order';

  // jsonb stores keys reordered (shortest first); json keeps the text as written, so a delivered
  // event's data has the key order of the public object. Written by hand: the schema comparator
  // treats json and jsonb alike, so the generator sees no change.
  override up(): void | Promise<void> {
    this.addSql(`alter table "outbox_events" alter column "envelope" type json using "envelope"::json;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "outbox_events" alter column "envelope" type jsonb using "envelope"::jsonb;`);
  }

}
